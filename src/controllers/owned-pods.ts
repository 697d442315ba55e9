// The pod informer of the workload controllers: every pod, kept with what owners read (labels,
// owner references, annotations, node, phase, readiness, restarts) and nothing of its spec.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import type { CoreV1Pod } from '../schema/generated/types.ts';
import type { ServedInNamespace } from '../schema/served.ts';

export type OwnedPod = ServedInNamespace<CoreV1Pod>;

export function ownedPodView(pod: OwnedPod): OwnedPod {
  const { managedFields: _, ...metadata } = pod.metadata;
  const st = pod.status ?? {};
  return {
    metadata,
    spec: { nodeName: pod.spec?.nodeName, containers: [] },
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
