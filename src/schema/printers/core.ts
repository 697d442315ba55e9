// Printers for core (group "") resources other than pods and volumes.

import type { KubeObject } from '../../api/object.ts';
import type { Printer } from './types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { age, formatLabels, list, nameOf, objAge, spec, status, timeOf, withMore, type Obj } from './format.ts';

/** load balancer ingress points: IPs, else host names, sorted and without repeats */
export function loadBalancerAddresses(lb: Obj | undefined): string[] {
  const set = new Set<string>();
  for (const i of list(lb?.ingress)) { const a = i.ip || i.hostname; if (a) set.add(a); }
  return [...set].sort();
}

function serviceExternalIP(s: Obj, st: Obj): string {
  const external = (s.externalIPs ?? []) as string[];
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(st.loadBalancer), ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return s.externalName ?? '';
    default:
      return '<unknown>';
  }
}

export const servicePrinter: Printer = {
  columns: [nameColumn(), col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), ageColumn(), wideColumn('Selector')],
  cells(svc, now) {
    const s = spec(svc);
    const ports = list(s.ports).map(p => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
    const clusterIP = (s.clusterIPs as string[] | undefined)?.[0] ?? s.clusterIP;
    return [nameOf(svc), s.type ?? '', clusterIP || '<none>', serviceExternalIP(s, status(svc)), ports || '<none>', objAge(svc, now), formatLabels(s.selector)];
  },
};

function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) { const r = k.slice('node-role.kubernetes.io/'.length); if (r) roles.add(r); } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    nameColumn(), col('Status'), col('Roles'), ageColumn(), col('Version'),
    wideColumn('Internal-IP'), wideColumn('External-IP'), wideColumn('OS-Image'), wideColumn('Kernel-Version'), wideColumn('Container-Runtime'),
  ],
  cells(node, now) {
    const st = status(node);
    const ready = list(st.conditions).findLast(c => c.type === 'Ready');
    const states = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
    if (spec(node).unschedulable) states.push('SchedulingDisabled');
    const addr = (t: string) => list(st.addresses).find(a => a.type === t)?.address ?? '<none>';
    const info: Obj = st.nodeInfo ?? {};
    return [
      nameOf(node), states.join(','), nodeRoles(node), objAge(node, now), info.kubeletVersion ?? '',
      addr('InternalIP'), addr('ExternalIP'), info.osImage || '<unknown>', info.kernelVersion || '<unknown>', info.containerRuntimeVersion || '<unknown>',
    ];
  },
};

export const namespacePrinter: Printer = {
  columns: [nameColumn(), col('Status'), ageColumn()],
  cells: (ns, now) => [nameOf(ns), status(ns).phase ?? '', objAge(ns, now)],
};

const count = (v: unknown) => Object.keys((v ?? {}) as object).length;

export const configMapPrinter: Printer = {
  columns: [nameColumn(), col('Data'), ageColumn()],
  cells: (cm, now) => [nameOf(cm), count(cm.data) + count(cm.binaryData), objAge(cm, now)],
};

export const secretPrinter: Printer = {
  columns: [nameColumn(), col('Type'), col('Data'), ageColumn()],
  cells: (s, now) => [nameOf(s), (s.type as string | undefined) ?? '', count(s.data), objAge(s, now)],
};

export const serviceAccountPrinter: Printer = {
  columns: [nameColumn(), col('Secrets'), ageColumn()],
  cells: (sa, now) => [nameOf(sa), list(sa.secrets).length, objAge(sa, now)],
};

export const endpointsPrinter: Printer = {
  columns: [nameColumn(), col('Endpoints'), ageColumn()],
  cells(ep, now) {
    const subsets = list(ep.subsets);
    if (!subsets.length) return [nameOf(ep), '<none>', objAge(ep, now)];
    const shown: string[] = [];
    let total = 0;
    for (const ss of subsets) {
      const addrs = list(ss.addresses);
      const ports = list(ss.ports);
      if (!ports.length) { total += addrs.length; for (const a of addrs) shown.push(a.ip); continue; }
      for (const p of ports) {
        total += addrs.length;
        for (const a of addrs) shown.push(String(a.ip).includes(':') ? `[${a.ip}]:${p.port}` : `${a.ip}:${p.port}`);
      }
    }
    return [nameOf(ep), withMore(shown, total, 3), objAge(ep, now)];
  },
};

export const eventPrinter: Printer = {
  columns: [
    col('Last Seen'), col('Type'), col('Reason'), col('Object'), wideColumn('Subobject'), wideColumn('Source'),
    col('Message'), wideColumn('First Seen'), wideColumn('Count'), col('Name', 'string', 1, 'name'),
  ],
  cells(ev, now) {
    // events.k8s.io spells the same facts differently
    const raw = ev as Obj;
    const e: Obj = {
      ...raw,
      involvedObject: raw.involvedObject ?? raw.regarding,
      message: raw.message ?? raw.note,
      firstTimestamp: raw.firstTimestamp ?? raw.deprecatedFirstTimestamp,
      lastTimestamp: raw.lastTimestamp ?? raw.deprecatedLastTimestamp,
      count: raw.count ?? raw.deprecatedCount,
      source: raw.source ?? raw.deprecatedSource,
    };
    const io: Obj = e.involvedObject ?? {};
    const first = timeOf(e.firstTimestamp) !== undefined ? age(e.firstTimestamp, now) : age(e.eventTime, now);
    let last = timeOf(e.lastTimestamp) !== undefined ? age(e.lastTimestamp, now) : first;
    let n: number = e.count || 1;
    if (e.series) { last = age(e.series.lastObservedTime, now); n = e.series.count ?? 0; }
    const kind = String(io.kind ?? '').toLowerCase();
    const target = io.name ? `${kind}/${io.name}` : kind;
    const component = e.source?.component || e.reportingController || '';
    const instance = e.source?.host || e.reportingInstance || '';
    const source = instance ? `${component}, ${instance}` : component;
    return [last, e.type ?? '', e.reason ?? '', target, io.fieldPath ?? '', source, String(e.message ?? '').trim(), first, n, nameOf(ev)];
  },
};

export const resourceQuotaPrinter: Printer = {
  columns: [nameColumn(), col('Request'), col('Limit'), ageColumn()],
  cells(q, now) {
    const st = status(q);
    const hard = (st.hard ?? {}) as Record<string, string>;
    const used = (st.used ?? {}) as Record<string, string>;
    const requests: string[] = [], limits: string[] = [];
    for (const k of Object.keys(hard).sort()) {
      const pieces = k.split('.');
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(`${k}: ${used[k] ?? '0'}/${hard[k]}`);
    }
    return [nameOf(q), requests.join(', '), limits.join(', '), objAge(q, now)];
  },
};
