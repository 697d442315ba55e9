// The built-in local-path provisioner (orch.io/local-path), run as an external provisioner is:
// claims the binder marked for it (volume.kubernetes.io/storage-provisioner) get a hostPath
// volume on the node the scheduler selected, pre-bound to them, which the binder then binds; a
// Released volume of its own whose reclaim policy is Delete is deleted.

import type { Logger } from '../../api/log.ts';
import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import { eventRecorder, type EventTarget } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { CoreV1Node } from '../../schema/generated/types.ts';
import { annBetaStorageProvisioner, annProvisionedBy, annSelectedNode, annStorageProvisioner, claimClass, type Claim, type StorageClass, type Volume } from './claims.ts';
import { defaultLocalPathDir, localPathProvisioner, localPathVolume, volumeNameFor } from './local-path-volume.ts';

export interface LocalPathOptions {
  /** the directory on each node under which volumes are made */
  dir?: string;
}

const provisionerOf = (c: Claim) => c.metadata.annotations?.[annStorageProvisioner] ?? c.metadata.annotations?.[annBetaStorageProvisioner];

export function startLocalPathProvisioner(client: Client, log: Logger, o: LocalPathOptions = {}): { stop(): void } {
  const dir = o.dir ?? defaultLocalPathDir;
  const events = eventRecorder(client, localPathProvisioner, log);
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log });
  const volumes = createInformer<Volume>(client, '/api/v1/persistentvolumes', { log });
  const classes = createInformer<StorageClass>(client, '/apis/storage.k8s.io/v1/storageclasses', { log });
  const nodes = createInformer<CoreV1Node & { metadata: { name: string } }>(client, '/api/v1/nodes', { log });
  const target = (c: Claim): EventTarget => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: c.metadata as EventTarget['metadata'] });

  function wanted(c: Claim): StorageClass | undefined {
    if (c.spec?.volumeName || c.metadata.deletionTimestamp || provisionerOf(c) !== localPathProvisioner) return undefined;
    const sc = classes.get(claimClass(c));
    if (sc?.provisioner !== localPathProvisioner) return undefined;
    if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !c.metadata.annotations?.[annSelectedNode]) return undefined;
    return sc;
  }

  async function provision(key: string): Promise<void> {
    const c = claims.get(key);
    if (!c) return;
    const sc = wanted(c);
    if (!sc || volumes.get(volumeNameFor(c))) return;
    const selected = c.metadata.annotations?.[annSelectedNode];
    const made = localPathVolume(c, sc, selected ? nodes.get(selected) : undefined, dir);
    if ('error' in made) {
      events.record(target(c), 'Warning', 'ProvisioningFailed', made.error);
      // no retry can mend this claim on this node: the scheduler is told, by the node's
      // annotation going, to place its pod again (as external provisioners reschedule)
      if (selected && nodes.get(selected)) {
        const annotations = { ...c.metadata.annotations };
        delete annotations[annSelectedNode];
        await client.update(`/api/v1/namespaces/${encodeURIComponent(c.metadata.namespace!)}/persistentvolumeclaims/${encodeURIComponent(c.metadata.name!)}`, { ...c, metadata: { ...c.metadata, annotations } });
        return;
      }
      throw new Error(made.error);
    }
    events.record(target(c), 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    try {
      await client.create('/api/v1/persistentvolumes', made.volume);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    log.info('volume provisioned', { claim: key, volume: made.volume.metadata!.name, node: selected });
    events.record(target(c), 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${made.volume.metadata!.name}`);
  }

  async function reclaim(name: string): Promise<void> {
    const v = volumes.get(name);
    if (!v || v.metadata.deletionTimestamp) return;
    if (v.metadata.annotations?.[annProvisionedBy] !== localPathProvisioner) return;
    if (v.status?.phase !== 'Released' || v.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    await client.delete(`/api/v1/persistentvolumes/${encodeURIComponent(name)}`, { preconditions: { uid: v.metadata.uid } }).catch(err => { if (!isNotFound(err)) throw err; });
    log.info('volume deleted', { volume: name });
  }

  // nothing is decided before every informer has listed (an unknown node is not a missing one)
  const whenSynced = (fn: (key: string) => Promise<void>) => async (key: string): Promise<SyncResult> => {
    if (![classes, nodes, volumes, claims].every(i => (i as Informer).hasSynced())) return { requeueAfterMs: 200 };
    await fn(key);
  };
  const claimQueue = createWorkQueue(whenSynced(provision), { concurrency: 4, baseDelayMs: 500, maxDelayMs: 60_000, log });
  const volumeQueue = createWorkQueue(whenSynced(reclaim), { concurrency: 2, baseDelayMs: 500, maxDelayMs: 60_000, log });
  claims.on('add', c => claimQueue.add(objectKey(c))).on('update', (_a, c) => claimQueue.add(objectKey(c)));
  volumes.on('add', v => volumeQueue.add(v.metadata.name!)).on('update', (_a, v) => volumeQueue.add(v.metadata.name!));
  classes.on('add', () => { for (const c of claims.list()) claimQueue.add(objectKey(c)); });
  for (const i of [classes, nodes, volumes, claims]) i.start();
  return {
    stop() {
      for (const i of [classes, nodes, volumes, claims]) i.stop();
      claimQueue.shutdown();
      volumeQueue.shutdown();
    },
  };
}
