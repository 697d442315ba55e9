// Printers for the remaining grouped resources: coordination, networking, RBAC, scheduling,
// autoscaling, policy, certificates, admission, node and discovery.

import type { Printer } from './types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { humanDuration, list, nameOf, objAge, selectorString, spec, status, withMore, type Obj } from './format.ts';
import { loadBalancerAddresses } from './core.ts';

export const leasePrinter: Printer = {
  columns: [nameColumn(), col('Holder'), ageColumn()],
  cells: (l, now) => [nameOf(l), spec(l).holderIdentity ?? '', objAge(l, now)],
};

function ingressHosts(rules: Obj[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    if (hosts.length === 3) { more = true; break; }
    if (r.host) hosts.push(r.host);
  }
  if (!hosts.length) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

export const ingressPrinter: Printer = {
  columns: [nameColumn(), col('Class'), col('Hosts'), col('Address'), col('Ports'), ageColumn()],
  cells(ing, now) {
    const s = spec(ing);
    return [nameOf(ing), s.ingressClassName ?? '<none>', ingressHosts(list(s.rules)), loadBalancerAddresses(status(ing).loadBalancer).join(','), list(s.tls).length ? '80, 443' : '80', objAge(ing, now)];
  },
};

export const ingressClassPrinter: Printer = {
  columns: [nameColumn(), col('Controller'), col('Parameters'), ageColumn()],
  cells(ic, now) {
    const p: Obj | undefined = spec(ic).parameters;
    const params = p ? `${p.kind}${p.apiGroup ? '.' + p.apiGroup : ''}/${p.name}` : '<none>';
    return [nameOf(ic), spec(ic).controller ?? '', params, objAge(ic, now)];
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [nameColumn(), col('Pod-Selector'), ageColumn()],
  cells: (np, now) => [nameOf(np), selectorString(spec(np).podSelector ?? {}), objAge(np, now)],
};

function subjects(rb: Obj, kind: string): string {
  return list(rb.subjects).filter(s => s.kind === kind).map(s => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name)).join(', ');
}

export const roleBindingPrinter: Printer = {
  columns: [nameColumn(), col('Role'), ageColumn(), wideColumn('Users'), wideColumn('Groups'), wideColumn('ServiceAccounts')],
  cells(rb, now) {
    const o = rb as Obj;
    return [nameOf(rb), `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}`, objAge(rb, now), subjects(o, 'User'), subjects(o, 'Group'), subjects(o, 'ServiceAccount')];
  },
};

export const priorityClassPrinter: Printer = {
  columns: [nameColumn(), col('Value', 'integer'), col('Global-Default', 'boolean'), ageColumn(), col('PreemptionPolicy')],
  cells(pc, now) {
    const o = pc as Obj;
    return [nameOf(pc), o.value ?? 0, o.globalDefault === true, objAge(pc, now), o.preemptionPolicy ?? ''];
  },
};

/** one metric target as `current/target`, following the autoscaling/v2 shapes */
function metricText(m: Obj, current: Obj | undefined): string {
  const unknown = '<unknown>';
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const src: Obj = m[key] ?? {}, cur: Obj | undefined = current?.[key]?.current;
      if (src.target?.averageValue !== undefined) return `${src.name}: ${cur?.averageValue ?? unknown}/${src.target.averageValue}`;
      const now = cur?.averageUtilization !== undefined ? `${cur.averageUtilization}%` : unknown;
      const target = src.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
      return `${src.name}: ${now}/${target}`;
    }
    case 'Pods':
      return `${current?.pods?.current?.averageValue ?? unknown}/${m.pods?.target?.averageValue ?? ''}`;
    case 'Object':
    case 'External': {
      const key = m.type === 'Object' ? 'object' : 'external';
      const target: Obj = m[key]?.target ?? {}, cur: Obj | undefined = current?.[key]?.current;
      if (target.averageValue !== undefined) return `${cur?.averageValue ?? unknown}/${target.averageValue} (avg)`;
      return `${cur?.value ?? unknown}/${target.value ?? ''}`;
    }
    default:
      return '<unknown type>';
  }
}

function hpaTargets(h: Obj): string {
  const s: Obj = h.spec ?? {}, st: Obj = h.status ?? {};
  let metrics = list(s.metrics), current = list(st.currentMetrics);
  // autoscaling/v1 objects carry a single CPU target
  if (!metrics.length && s.targetCPUUtilizationPercentage !== undefined) {
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: s.targetCPUUtilizationPercentage } } }];
    current = st.currentCPUUtilizationPercentage !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: st.currentCPUUtilizationPercentage } } }] : [];
  }
  if (!metrics.length) return '<none>';
  return withMore(metrics.map((m, i) => metricText(m, current[i])), metrics.length, 2, ', ');
}

export const hpaPrinter: Printer = {
  columns: [nameColumn(), col('Reference'), col('Targets'), col('MinPods'), col('MaxPods'), col('Replicas'), ageColumn()],
  cells(h, now) {
    const s = spec(h);
    const ref = `${s.scaleTargetRef?.kind ?? ''}/${s.scaleTargetRef?.name ?? ''}`;
    return [nameOf(h), ref, hpaTargets(h as Obj), s.minReplicas !== undefined ? String(s.minReplicas) : '<unset>', s.maxReplicas ?? 0, status(h).currentReplicas ?? 0, objAge(h, now)];
  },
};

export const pdbPrinter: Printer = {
  columns: [nameColumn(), col('Min Available'), col('Max Unavailable'), col('Allowed Disruptions', 'integer'), ageColumn()],
  cells(p, now) {
    const s = spec(p);
    const show = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v));
    return [nameOf(p), show(s.minAvailable), show(s.maxUnavailable), status(p).disruptionsAllowed ?? 0, objAge(p, now)];
  },
};

function csrCondition(c: Obj): string {
  const types = new Set(list(c.status?.conditions).map(x => x.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (c.status?.certificate) text += ',Issued';
  return text;
}

export const csrPrinter: Printer = {
  columns: [nameColumn(), ageColumn(), col('SignerName'), col('Requestor'), col('RequestedDuration'), col('Condition')],
  cells(c, now) {
    const s = spec(c);
    const requested = typeof s.expirationSeconds === 'number' ? humanDuration(s.expirationSeconds * 1000) : '<none>';
    return [nameOf(c), objAge(c, now), s.signerName || '<none>', s.username ?? '', requested, csrCondition(c as Obj)];
  },
};

export const webhookConfigurationPrinter: Printer = {
  columns: [nameColumn(), col('Webhooks', 'integer'), ageColumn()],
  cells: (w, now) => [nameOf(w), list(w.webhooks).length, objAge(w, now)],
};

export const runtimeClassPrinter: Printer = {
  columns: [nameColumn(), col('Handler'), ageColumn()],
  cells: (rc, now) => [nameOf(rc), (rc as Obj).handler ?? '', objAge(rc, now)],
};

export const endpointSlicePrinter: Printer = {
  columns: [nameColumn(), col('AddressType'), col('Ports'), col('Endpoints'), ageColumn()],
  cells(es, now) {
    const o = es as Obj;
    const ports = list(o.ports).map(p => (p.port !== undefined && p.port !== null ? String(p.port) : p.name ?? '*'));
    const addrs = list(o.endpoints).flatMap(e => (Array.isArray(e.addresses) ? e.addresses as string[] : []));
    return [nameOf(es), o.addressType ?? '', withMore(ports, ports.length, 3) || '<unset>', withMore(addrs, addrs.length, 3) || '<unset>', objAge(es, now)];
  },
};
