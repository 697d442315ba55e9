// Printers for grouped resources outside the workloads.

import type { Printer } from './types.ts';
import { col, nameColumn } from './types.ts';
import { objAge, orNone, selectorString, spec, status } from './format.ts';

type Obj = Record<string, any>;

export const leasePrinter: Printer = {
  columns: [nameColumn(), col('Holder'), col('Age')],
  cells: (l, now) => [l.metadata.name, spec(l).holderIdentity ?? '', objAge(l, now)],
};

export const ingressPrinter: Printer = {
  columns: [nameColumn(), col('Class'), col('Hosts'), col('Address'), col('Ports'), col('Age')],
  cells(ing, now) {
    const s = spec(ing);
    const hosts = ((s.rules ?? []) as Obj[]).map(r => r.host).filter(Boolean);
    const addrs = ((status(ing).loadBalancer?.ingress ?? []) as Obj[]).map(i => i.ip ?? i.hostname);
    return [ing.metadata.name, orNone(s.ingressClassName), hosts.length ? hosts.join(',') : '*', addrs.join(','), s.tls?.length ? '80, 443' : '80', objAge(ing, now)];
  },
};

export const ingressClassPrinter: Printer = {
  columns: [nameColumn(), col('Controller'), col('Parameters'), col('Age')],
  cells: (ic, now) => [ic.metadata.name, spec(ic).controller ?? '', spec(ic).parameters ? `${spec(ic).parameters.kind}/${spec(ic).parameters.name}` : '<none>', objAge(ic, now)],
};

export const networkPolicyPrinter: Printer = {
  columns: [nameColumn(), col('Pod-Selector'), col('Age')],
  cells: (np, now) => [np.metadata.name, selectorString(spec(np).podSelector), objAge(np, now)],
};

export const storageClassPrinter: Printer = {
  columns: [nameColumn(), col('Provisioner'), col('ReclaimPolicy'), col('VolumeBindingMode'), col('AllowVolumeExpansion'), col('Age')],
  cells(sc, now) {
    const o = sc as Obj;
    const def = sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
    return [def ? `${sc.metadata.name} (default)` : sc.metadata.name, o.provisioner ?? '', o.reclaimPolicy ?? 'Delete', o.volumeBindingMode ?? 'Immediate', !!o.allowVolumeExpansion, objAge(sc, now)];
  },
};

export const createdAtPrinter: Printer = {
  columns: [nameColumn(), col('Created At', 'date')],
  cells: o => [o.metadata.name, o.metadata.creationTimestamp],
};

function subjects(rb: Obj, kind: string): string {
  return ((rb.subjects ?? []) as Obj[]).filter(s => s.kind === kind).map(s => (kind === 'ServiceAccount' ? `${s.namespace}/${s.name}` : s.name)).join(', ');
}

export const roleBindingPrinter: Printer = {
  columns: [nameColumn(), col('Role'), col('Age'), col('Users', 'string', 1), col('Groups', 'string', 1), col('ServiceAccounts', 'string', 1)],
  cells(rb, now) {
    const o = rb as Obj;
    return [rb.metadata.name, `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}`, objAge(rb, now), subjects(o, 'User'), subjects(o, 'Group'), subjects(o, 'ServiceAccount')];
  },
};

export const priorityClassPrinter: Printer = {
  columns: [nameColumn(), col('Value', 'integer'), col('Global-Default', 'boolean'), col('Age'), col('PreemptionPolicy', 'string', 1)],
  cells(pc, now) {
    const o = pc as Obj;
    return [pc.metadata.name, o.value ?? 0, !!o.globalDefault, objAge(pc, now), o.preemptionPolicy ?? 'PreemptLowerPriority'];
  },
};

export const hpaPrinter: Printer = {
  columns: [nameColumn(), col('Reference'), col('Targets'), col('MinPods', 'integer'), col('MaxPods', 'integer'), col('Replicas', 'integer'), col('Age')],
  cells(h, now) {
    const s = spec(h);
    const ref = s.scaleTargetRef ? `${s.scaleTargetRef.kind}/${s.scaleTargetRef.name}` : '';
    const metrics = (s.metrics ?? []) as Obj[];
    const targets = metrics.length ? metrics.map(m => `<unknown>/${m.resource?.target?.averageUtilization ?? ''}%`).join(', ') : s.targetCPUUtilizationPercentage !== undefined ? `<unknown>/${s.targetCPUUtilizationPercentage}%` : '<none>';
    return [h.metadata.name, ref, targets, s.minReplicas ?? 1, s.maxReplicas ?? 0, status(h).currentReplicas ?? 0, objAge(h, now)];
  },
};

export const pdbPrinter: Printer = {
  columns: [nameColumn(), col('Min Available'), col('Max Unavailable'), col('Allowed Disruptions', 'integer'), col('Age')],
  cells(p, now) {
    const s = spec(p);
    return [p.metadata.name, s.minAvailable !== undefined ? String(s.minAvailable) : 'N/A', s.maxUnavailable !== undefined ? String(s.maxUnavailable) : 'N/A', status(p).disruptionsAllowed ?? 0, objAge(p, now)];
  },
};

export const csrPrinter: Printer = {
  columns: [nameColumn(), col('Age'), col('SignerName'), col('Requestor'), col('RequestedDuration'), col('Condition')],
  cells(c, now) {
    const s = spec(c);
    const conds = ((status(c).conditions ?? []) as Obj[]).map(x => x.type);
    return [c.metadata.name, objAge(c, now), s.signerName ?? '', s.username ?? '', s.expirationSeconds ? `${Math.round(s.expirationSeconds / 60)}m` : '<none>', conds.length ? conds.join(',') : 'Pending'];
  },
};
