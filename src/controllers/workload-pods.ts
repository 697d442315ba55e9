// The pods the StatefulSet and DaemonSet controllers hold: who a pod is (metadata without field
// history), where it is or is meant to go (node, required node affinity), the claims it mounts,
// and its phase and readiness; nothing else of its spec or status.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import type { CoreV1Pod } from '../schema/generated/types.ts';
import type { ServedInNamespace } from '../schema/served.ts';

export type WorkloadPod = ServedInNamespace<CoreV1Pod>;

export function workloadPodView(pod: WorkloadPod): WorkloadPod {
  const { managedFields: _, ...metadata } = pod.metadata;
  const s = pod.spec;
  const claims = s?.volumes?.filter(v => v.persistentVolumeClaim);
  return {
    metadata,
    spec: {
      containers: [],
      ...(s?.nodeName ? { nodeName: s.nodeName } : { affinity: s?.affinity }),
      ...(claims?.length ? { volumes: claims } : {}),
    },
    status: { phase: pod.status?.phase, conditions: pod.status?.conditions?.filter(c => c.type === 'Ready') },
  };
}

export function workloadPodInformer(client: Client, log?: Logger): Informer<WorkloadPod> {
  return createInformer<WorkloadPod>(client, '/api/v1/pods', { log, transform: workloadPodView });
}

/** an index of an informer's objects by namespace, kept from its events */
export function byNamespace<T extends { metadata: { name: string; namespace: string } }>(inf: Informer<T>): (ns: string) => T[] {
  const index = new Map<string, Map<string, T>>();
  const keep = (o: T) => { let m = index.get(o.metadata.namespace); if (!m) index.set(o.metadata.namespace, m = new Map()); m.set(o.metadata.name, o); };
  const forget = (o: T) => { const m = index.get(o.metadata.namespace); if (m?.delete(o.metadata.name) && !m.size) index.delete(o.metadata.namespace); };
  inf.on('add', keep).on('update', (_o, n) => keep(n)).on('delete', forget);
  return ns => [...(index.get(ns)?.values() ?? [])];
}
