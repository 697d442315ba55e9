// Test support: runs a packet through a generated ruleset as the kernel would, for the rule forms
// the generator writes (set lookups on addresses, protocol . port and address . protocol . port,
// conntrack state, jump/goto/accept/drop), so tests can state what a policy allows.

import { parseAddress } from '../../../src/api/address-ranges.ts';
import type { Ruleset } from '../../../src/network-policy/ruleset.ts';

export interface Packet { src: string; dst: string; proto?: 'tcp' | 'udp' | 'sctp' | 'icmp'; port?: number; established?: boolean }

function inElement(element: string, value: string): boolean {
  const parts = element.split(' . ');
  const values = value.split(' . ');
  return parts.length === values.length && parts.every((p, i) => inPart(p, values[i]!));
}

function inPart(part: string, value: string): boolean {
  const addr = parseAddress(value);
  if (!addr) {
    if (/^\d+$/.test(value)) {
      const [a, b] = part.split('-').map(Number);
      return Number(value) >= a! && Number(value) <= (b ?? a!);
    }
    return part === value;
  }
  if (part.includes('/')) {
    const [base, len] = part.split('/');
    const bits = addr.family === 4 ? 32 : 128;
    const b = parseAddress(base!);
    const host = (1n << BigInt(bits - Number(len))) - 1n;
    return b?.family === addr.family && (addr.value & ~host) === b.value;
  }
  const [from, to] = part.split(/-(?=[\d.:a-f]+$)/).map(x => parseAddress(x));
  if (!from || from.family !== addr.family) return false;
  return addr.value >= from.value && addr.value <= (to ?? from).value;
}

function matches(cond: string, p: Packet, r: Ruleset): boolean {
  let m: RegExpExecArray | null;
  if (cond === 'ct state established,related') return !!p.established;
  if (cond.startsWith('icmpv6 type')) return false;
  if ((m = /^(ip6?) (saddr|daddr) @(\S+)$/.exec(cond))) {
    const addr = m[2] === 'saddr' ? p.src : p.dst;
    if ((parseAddress(addr)?.family === 6) !== (m[1] === 'ip6')) return false;
    return r.sets.get(m[3]!)!.elements.some(e => inElement(e, addr));
  }
  if ((m = /^meta l4proto \. th dport @(\S+)$/.exec(cond))) {
    if (!p.proto || p.proto === 'icmp') return false;
    return r.sets.get(m[1]!)!.elements.some(e => inElement(e, `${p.proto} . ${p.port}`));
  }
  if ((m = /^(ip6?) daddr \. meta l4proto \. th dport @(\S+)$/.exec(cond))) {
    if (!p.proto || p.proto === 'icmp' || (parseAddress(p.dst)?.family === 6) !== (m[1] === 'ip6')) return false;
    return r.sets.get(m[2]!)!.elements.some(e => inElement(e, `${p.dst} . ${p.proto} . ${p.port}`));
  }
  throw new Error(`the evaluator does not know ${JSON.stringify(cond)}`);
}

type Verdict = 'accept' | 'drop' | 'return';

function run(chain: string, p: Packet, r: Ruleset, depth = 0): Verdict {
  if (depth > 16) throw new Error('loop');
  for (const rule of r.chains.get(chain)!.rules) {
    const text = rule.replace(/ comment ".*"$/, '').replace(/^counter /, '').replace(/ counter /, ' ');
    const m = /^(.*?)\s*(accept|drop|(?:jump|goto) \S+)$/.exec(text)!;
    // each condition ends at its set reference, or is a conntrack or ICMPv6 test
    const conds = (m[1] ?? '').match(/ct state \S+|icmpv6 type \{[^}]*\}|[^@]+@\S+/g)?.map(c => c.trim()) ?? [];
    if (!conds.every(c => matches(c, p, r))) continue;
    const verdict = m[2]!;
    if (verdict === 'accept' || verdict === 'drop') return verdict;
    const [kind, target] = verdict.split(' ');
    const v = run(target!, p, r, depth + 1);
    if (kind === 'goto') return v;
    if (v !== 'return') return v;
  }
  return 'return';
}

/** the verdict of this node's table on a packet at a hook: forward (between pods) or input (pod to host) */
export function verdict(r: Ruleset, hook: 'forward' | 'input', p: Packet): 'accept' | 'drop' {
  const v = run(hook, p, r);
  return v === 'drop' ? 'drop' : 'accept';
}
