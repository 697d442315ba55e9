// The ephemeral-volume controller: a pod's generic ephemeral volume is a claim named
// `<pod>-<volume>`, made from the volume's claim template and owned by the pod (so it goes with
// the pod through the garbage collector). A claim of that name the pod does not own is left
// alone, and the pod cannot start (the scheduler and the node agent say so).

import type { Logger } from '../../api/log.ts';
import { isAlreadyExists } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { CoreV1PersistentVolumeClaim, CoreV1Pod } from '../../schema/generated/types.ts';
import { podInformer } from '../pod-view.ts';
import type { Claim } from './claims.ts';

/** the claims a pod's ephemeral volumes need, as the controller makes them */
export function ephemeralClaims(pod: CoreV1Pod): CoreV1PersistentVolumeClaim[] {
  const m = pod.metadata ?? {};
  const out: CoreV1PersistentVolumeClaim[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const t = v.ephemeral?.volumeClaimTemplate;
    if (!t) continue;
    out.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: `${m.name}-${v.name}`,
        namespace: m.namespace,
        labels: t.metadata?.labels,
        annotations: t.metadata?.annotations,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: m.name!, uid: m.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec: t.spec,
    });
  }
  return out;
}

/** the claim was made for this pod (the pod is its controller) */
export const ownedByPod = (c: CoreV1PersistentVolumeClaim, pod: { metadata?: { uid?: string } }) =>
  (c.metadata?.ownerReferences ?? []).some(r => r.controller && r.uid === pod.metadata?.uid);

export function startEphemeralVolumeController(client: Client, log: Logger, o: { pods?: Informer<CoreV1Pod> } = {}): { stop(): void } {
  const events = eventRecorder(client, 'ephemeral_volume', log);
  const pods = o.pods ?? podInformer(client, log);
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log });

  async function sync(key: string): Promise<void> {
    const pod = pods.get(key);
    // placed pods lose their templates in the shared view; theirs were made before they were placed
    if (!pod || pod.metadata?.deletionTimestamp || pod.spec?.nodeName) return;
    for (const want of ephemeralClaims(pod)) {
      const existing = claims.get(`${want.metadata!.namespace}/${want.metadata!.name}`);
      if (existing) continue;
      try {
        await client.create(`/api/v1/namespaces/${encodeURIComponent(want.metadata!.namespace!)}/persistentvolumeclaims`, want);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        events.record({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata as never }, 'Warning', 'FailedCreate', `create PVC ${want.metadata!.name}: ${err instanceof Error ? err.message : String(err)}`);
        throw err;
      }
    }
  }

  const queue = createWorkQueue(sync, { concurrency: 2, baseDelayMs: 200, maxDelayMs: 30_000, log });
  const consider = (p: CoreV1Pod) => { if ((p.spec?.volumes ?? []).some(v => v.ephemeral)) queue.add(objectKey(p as never)); };
  pods.on('add', consider).on('update', (_a, p) => consider(p));
  // a claim of a pod's name deleted while the pod waits is made again
  claims.on('delete', c => { for (const r of c.metadata.ownerReferences ?? []) if (r.kind === 'Pod') queue.add(`${c.metadata.namespace}/${r.name}`); });
  claims.start();
  void claims.synced().then(() => pods.start());
  return { stop() { claims.stop(); if (!o.pods) pods.stop(); queue.shutdown(); } };
}
