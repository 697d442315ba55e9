// The fallback where the host has no nft tool: the same decisions as rules.ts written as an
// `iptables-restore` input in kube-proxy's iptables-mode layout (a services chain, one chain per
// service port, per endpoint and for external traffic; random choice by `statistic`, affinity by
// `recent`; REJECT in the filter table where no endpoint is left). IPv4 only. Pure.

import { createHash } from 'node:crypto';
import { portId } from './chain-names.ts';
import type { NodeFacts } from './rules.ts';
import { usableEndpoints, type ProxyEndpoint, type ServicePort } from './service-ports.ts';

export const defaultChainPrefix = 'ORCH-';
const masqMark = '0x4000';

/** chains of the built-in ones that jump to ours: [table, chain, rule spec] */
export function builtinJumps(prefix = defaultChainPrefix): Array<[string, string, string[]]> {
  const newConn = ['-m', 'conntrack', '--ctstate', 'NEW'];
  return [
    ['nat', 'PREROUTING', ['-j', `${prefix}SERVICES`]],
    ['nat', 'OUTPUT', ['-j', `${prefix}SERVICES`]],
    ['nat', 'POSTROUTING', ['-j', `${prefix}POSTROUTING`]],
    ['filter', 'INPUT', [...newConn, '-j', `${prefix}EXTERNAL-SERVICES`]],
    ['filter', 'INPUT', [...newConn, '-j', `${prefix}SERVICES`]],
    ['filter', 'FORWARD', [...newConn, '-j', `${prefix}SERVICES`]],
    ['filter', 'OUTPUT', [...newConn, '-j', `${prefix}SERVICES`]],
  ];
}

/** what iptables-save shows of our chains: their names per table */
export interface ExistingChains { nat: string[]; filter: string[] }

/** our chains in `iptables-save` output */
export function existingChains(save: string, prefix = defaultChainPrefix): ExistingChains {
  const out: ExistingChains = { nat: [], filter: [] };
  let table = '';
  for (const line of save.split('\n')) {
    if (line.startsWith('*')) table = line.slice(1).trim();
    else if (line.startsWith(`:${prefix}`) && (table === 'nat' || table === 'filter')) out[table].push(line.slice(1).split(' ')[0]!);
  }
  return out;
}

/**
 * The whole restore input: every chain of ours declared (so flushed) and refilled, chains found
 * but no longer wanted flushed and deleted. With `--noflush`, nothing else is touched, and the
 * kernel takes each table's part as one transaction.
 */
export function iptablesRestore(ports: ServicePort[], facts: NodeFacts, existing: ExistingChains = { nat: [], filter: [] }, prefix = defaultChainPrefix): string {
  const h = (kind: string, text: string) => `${prefix}${kind}-${createHash('sha256').update(text).digest('hex').slice(0, 16).toUpperCase()}`;
  const nat = new Map<string, string[]>();
  const filter = new Map<string, string[]>();
  const SERVICES = `${prefix}SERVICES`, NODEPORTS = `${prefix}NODEPORTS`, MASQ = `${prefix}MARK-MASQ`, POST = `${prefix}POSTROUTING`, EXTSVC = `${prefix}EXTERNAL-SERVICES`;
  for (const c of [SERVICES, NODEPORTS, MASQ, POST]) nat.set(c, []);
  for (const c of [SERVICES, EXTSVC]) filter.set(c, []);
  const add = (t: Map<string, string[]>, chain: string, rule: string) => { if (!t.has(chain)) t.set(chain, []); t.get(chain)!.push(`-A ${chain} ${rule}`); };
  add(nat, MASQ, `-j MARK --or-mark ${masqMark}`);
  add(nat, POST, `-m mark ! --mark ${masqMark}/${masqMark} -j RETURN`);
  add(nat, POST, `-j MARK --xor-mark ${masqMark}`);
  add(nat, POST, '-j MASQUERADE --random-fully');
  const cidr = facts.clusterCIDRs.filter(c => !c.includes(':'))[0];
  const nodePorts: string[] = [];

  for (const sp of ports) {
    const id = portId(sp);
    const p = `-p ${sp.protocol} -m ${sp.protocol}`;
    const comment = `-m comment --comment "${id}"`;
    const clusterEps = usableEndpoints(sp.endpoints);
    const localEps = usableEndpoints(sp.endpoints, facts.nodeName);
    const hasExternal = sp.nodePort !== undefined || sp.externalIPs.length > 0 || sp.loadBalancerIPs.length > 0;
    const internalEps = sp.internalLocal ? localEps : clusterEps;
    const externalEps = sp.externalLocal ? localEps : clusterEps;
    const verdict = (eps: ProxyEndpoint[]) => (clusterEps.length === 0 ? 'REJECT' : eps.length === 0 ? 'DROP' : undefined);
    const internalVerdict = verdict(internalEps);
    const externalVerdict = verdict(externalEps);
    const SVC = h('SVC', id), SVL = h('SVL', id), EXT = h('EXT', id);
    const sep = (ep: ProxyEndpoint) => h('SEP', `${id}@${ep.ip}/${ep.port}`);
    const pick = (chain: string, eps: ProxyEndpoint[]) => {
      if (sp.affinitySeconds !== undefined) for (const ep of eps) add(nat, chain, `${comment} -m recent --name ${sep(ep)} --mask 255.255.255.255 --rsource --rcheck --seconds ${sp.affinitySeconds} --reap -j ${sep(ep)}`);
      eps.forEach((ep, i) => {
        const left = eps.length - i;
        add(nat, chain, `${comment}${left > 1 ? ` -m statistic --mode random --probability ${(1 / left).toFixed(10)}` : ''} -j ${sep(ep)}`);
      });
    };
    const used = new Map<string, ProxyEndpoint>();
    if (clusterEps.length && (!sp.internalLocal || hasExternal)) {
      for (const ip of sp.clusterIPs) if (cidr) add(nat, SVC, `! -s ${cidr} -d ${ip}/32 ${p} --dport ${sp.port} ${comment} -j ${MASQ}`);
      pick(SVC, clusterEps);
      for (const ep of clusterEps) used.set(sep(ep), ep);
    }
    if (localEps.length && (sp.internalLocal || (hasExternal && sp.externalLocal))) {
      pick(SVL, localEps);
      for (const ep of localEps) used.set(sep(ep), ep);
    }
    for (const ip of sp.clusterIPs) {
      if (internalVerdict) add(filter, SERVICES, `-d ${ip}/32 ${p} --dport ${sp.port} ${comment} -j ${internalVerdict}`);
      else add(nat, SERVICES, `-d ${ip}/32 ${p} --dport ${sp.port} ${comment} -j ${sp.internalLocal ? SVL : SVC}`);
    }
    for (const ip of [...sp.externalIPs, ...sp.loadBalancerIPs]) {
      if (externalVerdict) add(filter, EXTSVC, `-d ${ip}/32 ${p} --dport ${sp.port} ${comment} -j ${externalVerdict}`);
      else add(nat, SERVICES, `-d ${ip}/32 ${p} --dport ${sp.port} ${comment} -j ${EXT}`);
    }
    if (sp.nodePort !== undefined) {
      if (externalVerdict) add(filter, EXTSVC, `-m addrtype --dst-type LOCAL ${p} --dport ${sp.nodePort} ${comment} -j ${externalVerdict}`);
      else nodePorts.push(`${p} --dport ${sp.nodePort} ${comment} -j ${EXT}`);
    }
    if (hasExternal && !externalVerdict) {
      if (sp.externalLocal) {
        if (cidr) add(nat, EXT, `-s ${cidr} ${comment} -j ${SVC}`);
        add(nat, EXT, `-m addrtype --src-type LOCAL ${comment} -j ${MASQ}`);
        add(nat, EXT, `-m addrtype --src-type LOCAL ${comment} -j ${SVC}`);
        add(nat, EXT, `${comment} -j ${SVL}`);
      } else {
        add(nat, EXT, `${comment} -j ${MASQ}`);
        add(nat, EXT, `${comment} -j ${SVC}`);
      }
    }
    for (const [name, ep] of used) {
      add(nat, name, `-s ${ep.ip}/32 ${comment} -j ${MASQ}`);
      const recent = sp.affinitySeconds !== undefined ? ` -m recent --name ${name} --mask 255.255.255.255 --rsource --set` : '';
      add(nat, name, `${p}${recent} ${comment} -j DNAT --to-destination ${ep.ip}:${ep.port}`);
    }
  }
  for (const rule of nodePorts) add(nat, NODEPORTS, rule);
  // node ports last: on this host's addresses (127.0.0.1 included, with route_localnet)
  add(nat, SERVICES, `-m addrtype --dst-type LOCAL -j ${NODEPORTS}`);

  const table = (name: string, chains: Map<string, string[]>, found: string[]) => {
    const stale = found.filter(c => !chains.has(c));
    return [
      `*${name}`,
      ...[...chains.keys(), ...stale].map(c => `:${c} - [0:0]`),
      ...[...chains.values()].flat(),
      ...stale.map(c => `-X ${c}`),
      'COMMIT',
    ];
  };
  return [...table('nat', nat, existing.nat), ...table('filter', filter, existing.filter), ''].join('\n');
}

/** the input that removes every chain of ours (after the built-in chains' jumps are gone) */
export function iptablesCleanup(existing: ExistingChains): string {
  const table = (name: string, chains: string[]) => (chains.length ? [`*${name}`, ...chains.map(c => `:${c} - [0:0]`), ...chains.map(c => `-X ${c}`), 'COMMIT'] : []);
  return [...table('nat', existing.nat), ...table('filter', existing.filter), ''].join('\n');
}
