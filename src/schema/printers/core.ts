// Core resources other than pods.

import type { Printer } from './types.ts';
import { col, nameColumn } from './types.ts';
import { age, mapSelector, objAge, orNone, spec, status } from './format.ts';

type Obj = Record<string, any>;

export const servicePrinter: Printer = {
  columns: [nameColumn(), col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), col('Age'), col('Selector', 'string', 1)],
  cells(svc, now) {
    const s = spec(svc);
    const type = s.type ?? 'ClusterIP';
    let external = '<none>';
    if (type === 'ExternalName') external = s.externalName ?? '<none>';
    else {
      const ips = [...((status(svc).loadBalancer?.ingress ?? []) as Obj[]).map(i => i.ip ?? i.hostname), ...((s.externalIPs ?? []) as string[])];
      if (ips.length) external = ips.join(',');
      else if (type === 'LoadBalancer') external = '<pending>';
    }
    const ports = ((s.ports ?? []) as Obj[]).map(p => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',') || '<none>';
    return [svc.metadata.name, type, orNone(s.clusterIP), external, ports, objAge(svc, now), mapSelector(s.selector)];
  },
};

export const nodePrinter: Printer = {
  columns: [nameColumn(), col('Status'), col('Roles'), col('Age'), col('Version'), col('Internal-IP', 'string', 1), col('External-IP', 'string', 1), col('OS-Image', 'string', 1), col('Kernel-Version', 'string', 1), col('Container-Runtime', 'string', 1)],
  cells(node, now) {
    const st = status(node);
    const ready = ((st.conditions ?? []) as Obj[]).find(c => c.type === 'Ready');
    const states = [ready?.status === 'True' ? 'Ready' : ready?.status === 'False' ? 'NotReady' : 'Unknown'];
    if (spec(node).unschedulable) states.push('SchedulingDisabled');
    const roles = Object.keys(node.metadata.labels ?? {}).filter(k => k.startsWith('node-role.kubernetes.io/')).map(k => k.slice('node-role.kubernetes.io/'.length)).filter(Boolean);
    const addr = (t: string) => ((st.addresses ?? []) as Obj[]).find(a => a.type === t)?.address;
    const info = st.nodeInfo ?? {};
    return [node.metadata.name, states.join(','), roles.length ? roles.sort().join(',') : '<none>', objAge(node, now), info.kubeletVersion ?? '', orNone(addr('InternalIP')), orNone(addr('ExternalIP')), info.osImage ?? '<unknown>', info.kernelVersion ?? '<unknown>', info.containerRuntimeVersion ?? '<unknown>'];
  },
};

export const namespacePrinter: Printer = {
  columns: [nameColumn(), col('Status'), col('Age')],
  cells: (ns, now) => [ns.metadata.name, status(ns).phase ?? '', objAge(ns, now)],
};

export const configMapPrinter: Printer = {
  columns: [nameColumn(), col('Data', 'integer'), col('Age')],
  cells: (cm, now) => [cm.metadata.name, Object.keys((cm.data ?? {}) as object).length + Object.keys((cm.binaryData ?? {}) as object).length, objAge(cm, now)],
};

export const secretPrinter: Printer = {
  columns: [nameColumn(), col('Type'), col('Data', 'integer'), col('Age')],
  cells: (s, now) => [s.metadata.name, s.type ?? 'Opaque', Object.keys((s.data ?? {}) as object).length, objAge(s, now)],
};

export const serviceAccountPrinter: Printer = {
  columns: [nameColumn(), col('Secrets', 'integer'), col('Age')],
  cells: (sa, now) => [sa.metadata.name, ((sa.secrets ?? []) as unknown[]).length, objAge(sa, now)],
};

export const endpointsPrinter: Printer = {
  columns: [nameColumn(), col('Endpoints'), col('Age')],
  cells(ep, now) {
    const list: string[] = [];
    for (const sub of (ep.subsets ?? []) as Obj[]) {
      for (const a of (sub.addresses ?? []) as Obj[]) for (const p of ((sub.ports ?? [{}]) as Obj[])) list.push(p.port ? `${a.ip}:${p.port}` : a.ip);
    }
    const shown = list.length > 3 ? `${list.slice(0, 3).join(',')} + ${list.length - 3} more...` : list.join(',');
    return [ep.metadata.name, shown || '<none>', objAge(ep, now)];
  },
};

export const eventPrinter: Printer = {
  columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Subobject', 'string', 1), col('Source', 'string', 1), col('Message'), col('First Seen', 'string', 1), col('Count', 'integer', 1), col('Name', 'string', 1)],
  cells(ev, now) {
    const e = ev as Obj;
    const io = e.involvedObject ?? {};
    const last = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? ev.metadata.creationTimestamp;
    const src = e.source?.component ? `${e.source.component}${e.source.host ? `, ${e.source.host}` : ''}` : (e.reportingComponent ?? '');
    return [age(last, now), e.type ?? '', e.reason ?? '', `${String(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`, io.fieldPath ?? '', src, e.message ?? '', age(e.firstTimestamp ?? e.eventTime, now), e.count ?? 1, ev.metadata.name];
  },
};

export const pvPrinter: Printer = {
  columns: [nameColumn(), col('Capacity'), col('Access Modes'), col('Reclaim Policy'), col('Status'), col('Claim'), col('StorageClass'), col('VolumeAttributesClass'), col('Reason'), col('Age'), col('VolumeMode', 'string', 1)],
  cells(pv, now) {
    const s = spec(pv), st = status(pv);
    const claim = s.claimRef ? `${s.claimRef.namespace}/${s.claimRef.name}` : '';
    return [pv.metadata.name, s.capacity?.storage ?? '', accessModes(s.accessModes), s.persistentVolumeReclaimPolicy ?? '', st.phase ?? '', claim, s.storageClassName ?? '', orNone(s.volumeAttributesClassName), st.reason ?? '', objAge(pv, now), s.volumeMode ?? 'Filesystem'];
  },
};

export const pvcPrinter: Printer = {
  columns: [nameColumn(), col('Status'), col('Volume'), col('Capacity'), col('Access Modes'), col('StorageClass'), col('VolumeAttributesClass'), col('Age'), col('VolumeMode', 'string', 1)],
  cells(pvc, now) {
    const s = spec(pvc), st = status(pvc);
    return [pvc.metadata.name, st.phase ?? '', s.volumeName ?? '', st.capacity?.storage ?? '', accessModes(st.accessModes), s.storageClassName ?? '', orNone(s.volumeAttributesClassName), objAge(pvc, now), s.volumeMode ?? 'Filesystem'];
  },
};

function accessModes(modes: string[] | undefined): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  return (modes ?? []).map(m => short[m] ?? m).join(',');
}

export const limitRangePrinter: Printer = { columns: [nameColumn(), col('Created At', 'date')], cells: lr => [lr.metadata.name, lr.metadata.creationTimestamp] };

export const resourceQuotaPrinter: Printer = {
  columns: [nameColumn(), col('Age'), col('Request'), col('Limit')],
  cells(q, now) {
    const st = status(q);
    const parts = (pred: (k: string) => boolean) => Object.keys(st.hard ?? {}).filter(pred).sort().map(k => `${k}: ${st.used?.[k] ?? '0'}/${st.hard[k]}`).join(', ');
    return [q.metadata.name, objAge(q, now), parts(k => !k.startsWith('limits.')), parts(k => k.startsWith('limits.'))];
  },
};

