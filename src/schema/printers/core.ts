// Printers for core (group "") resources other than pods and volumes.

import type { Of, Printer } from './types.ts';
import type { CoreV1ConfigMap, CoreV1Endpoints, CoreV1Event, CoreV1LoadBalancerStatus, CoreV1Namespace, CoreV1Node, CoreV1ResourceQuota, CoreV1Secret, CoreV1Service, CoreV1ServiceAccount, CoreV1ServiceSpec, CoreV1ServiceStatus, EventsV1Event } from '../generated/types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { age, formatLabels, list, nameOf, objAge, spec, status, timeOf, withMore } from './format.ts';

/** load balancer ingress points: IPs, else host names, sorted and without repeats */
export function loadBalancerAddresses(lb: CoreV1LoadBalancerStatus | undefined): string[] {
  const set = new Set<string>();
  for (const i of list(lb?.ingress)) { const a = i.ip || i.hostname; if (a) set.add(a); }
  return [...set].sort();
}

function serviceExternalIP(s: Partial<CoreV1ServiceSpec>, st: Partial<CoreV1ServiceStatus>): string {
  const external = s.externalIPs ?? [];
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

export const servicePrinter: Printer<Of<CoreV1Service>> = {
  columns: [nameColumn(), col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), ageColumn(), wideColumn('Selector')],
  cells(svc, now) {
    const s = spec(svc);
    const ports = list(s.ports).map(p => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
    const clusterIP = s.clusterIPs?.[0] ?? s.clusterIP;
    return [nameOf(svc), s.type ?? '', clusterIP || '<none>', serviceExternalIP(s, status(svc)), ports || '<none>', objAge(svc, now), formatLabels(s.selector)];
  },
};

function nodeRoles(node: Of<CoreV1Node>): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) { const r = k.slice('node-role.kubernetes.io/'.length); if (r) roles.add(r); } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

export const nodePrinter: Printer<Of<CoreV1Node>> = {
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
    const info = st.nodeInfo;
    return [
      nameOf(node), states.join(','), nodeRoles(node), objAge(node, now), info?.kubeletVersion ?? '',
      addr('InternalIP'), addr('ExternalIP'), info?.osImage || '<unknown>', info?.kernelVersion || '<unknown>', info?.containerRuntimeVersion || '<unknown>',
    ];
  },
};

export const namespacePrinter: Printer<Of<CoreV1Namespace>> = {
  columns: [nameColumn(), col('Status'), ageColumn()],
  cells: (ns, now) => [nameOf(ns), status(ns).phase ?? '', objAge(ns, now)],
};

const count = (v: object | undefined) => Object.keys(v ?? {}).length;

export const configMapPrinter: Printer<Of<CoreV1ConfigMap>> = {
  columns: [nameColumn(), col('Data'), ageColumn()],
  cells: (cm, now) => [nameOf(cm), count(cm.data) + count(cm.binaryData), objAge(cm, now)],
};

export const secretPrinter: Printer<Of<CoreV1Secret>> = {
  columns: [nameColumn(), col('Type'), col('Data'), ageColumn()],
  cells: (s, now) => [nameOf(s), s.type ?? '', count(s.data), objAge(s, now)],
};

export const serviceAccountPrinter: Printer<Of<CoreV1ServiceAccount>> = {
  columns: [nameColumn(), col('Secrets'), ageColumn()],
  cells: (sa, now) => [nameOf(sa), list(sa.secrets).length, objAge(sa, now)],
};

export const endpointsPrinter: Printer<Of<CoreV1Endpoints>> = {
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

export const eventPrinter: Printer<Of<CoreV1Event> | Of<EventsV1Event>> = {
  columns: [
    col('Last Seen'), col('Type'), col('Reason'), col('Object'), wideColumn('Subobject'), wideColumn('Source'),
    col('Message'), wideColumn('First Seen'), wideColumn('Count'), col('Name', 'string', 1, 'name'),
  ],
  cells(ev, now) {
    // events.k8s.io spells the same facts differently
    const raw = ev as Partial<CoreV1Event> & Partial<EventsV1Event>;
    const e = {
      ...raw,
      involvedObject: raw.involvedObject ?? raw.regarding,
      message: raw.message ?? raw.note,
      firstTimestamp: raw.firstTimestamp ?? raw.deprecatedFirstTimestamp,
      lastTimestamp: raw.lastTimestamp ?? raw.deprecatedLastTimestamp,
      count: raw.count ?? raw.deprecatedCount,
      source: raw.source ?? raw.deprecatedSource,
    };
    const io = e.involvedObject ?? {};
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

export const resourceQuotaPrinter: Printer<Of<CoreV1ResourceQuota>> = {
  columns: [nameColumn(), col('Request'), col('Limit'), ageColumn()],
  cells(q, now) {
    const st = status(q);
    const hard = st.hard ?? {};
    const used = st.used ?? {};
    const requests: string[] = [], limits: string[] = [];
    // every resource spec limits, with the figures status has (0 before the controller counts)
    for (const k of Object.keys(q.spec?.hard ?? {}).sort()) {
      const pieces = k.split('.');
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(`${k}: ${used[k] ?? '0'}/${hard[k] ?? '0'}`);
    }
    return [nameOf(q), requests.join(', '), limits.join(', '), objAge(q, now)];
  },
};
