// The pod informer of the workload controllers (ReplicaSets, ReplicationControllers,
// StatefulSets, DaemonSets): every pod, kept with what owners read — who it is (metadata without
// field history), where it is or is meant to go (node, or the required affinity before it is
// placed), the claims it mounts, its phase, readiness and restarts — and nothing else.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import type { CoreV1Pod } from '../schema/generated/types.ts';
import type { ServedInNamespace } from '../schema/served.ts';

export type OwnedPod = ServedInNamespace<CoreV1Pod>;

export function ownedPodView(pod: OwnedPod): OwnedPod {
  const { managedFields: _, ...metadata } = pod.metadata;
  const s = pod.spec;
  const st = pod.status ?? {};
  const claims = s?.volumes?.filter(v => v.persistentVolumeClaim);
  return {
    metadata,
    spec: {
      containers: [],
      ...(s?.nodeName ? { nodeName: s.nodeName } : s?.affinity ? { affinity: s.affinity } : {}),
      ...(claims?.length ? { volumes: claims } : {}),
    },
    status: {
      phase: st.phase,
      conditions: st.conditions?.filter(c => c.type === 'Ready'),
      containerStatuses: st.containerStatuses?.map(c => ({ name: c.name, restartCount: c.restartCount, ready: c.ready, image: '', imageID: '' })),
    },
  };
}

export function ownedPodInformer(client: Client, log?: Logger): Informer<OwnedPod> {
  return createInformer<OwnedPod>(client, '/api/v1/pods', { log, transform: ownedPodView });
}
