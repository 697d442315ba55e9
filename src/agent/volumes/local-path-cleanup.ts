// The node's half of the local-path provisioner: its volumes' directories live on this node, so
// this agent removes them. A volume the provisioner made carries the finalizer external
// provisioners use to hold a deleted volume until its storage is gone; when such a volume pinned
// to this node is deleted, its directory is removed if its reclaim policy is Delete (Retain keeps
// the data), then the finalizer goes and the API server lets the volume go.

import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Logger } from '../../api/log.ts';
import { localPathProvisionerName } from '../../api/default-storage-class.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { createInformer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { CoreV1PersistentVolume } from '../../schema/generated/types.ts';

export const provisionerFinalizer = 'external-provisioner.volume.kubernetes.io/finalizer';
export const selectedNodeAnnotation = 'local.path.provisioner/selected-node';

type Volume = CoreV1PersistentVolume & { metadata: { name: string } };

/** what to do with a volume on this node: nothing, or remove its finalizer (after deleting this directory) */
export function cleanupOf(v: CoreV1PersistentVolume, nodeName: string): { remove?: string } | undefined {
  const m = v.metadata ?? {};
  if (!m.deletionTimestamp || !(m.finalizers ?? []).includes(provisionerFinalizer)) return undefined;
  if (m.annotations?.['pv.kubernetes.io/provisioned-by'] !== localPathProvisionerName || m.annotations?.[selectedNodeAnnotation] !== nodeName) return undefined;
  if (v.spec?.persistentVolumeReclaimPolicy !== 'Delete') return {};
  const path = v.spec?.hostPath?.path ?? v.spec?.local?.path;
  // only the directory the provisioner named for this volume, never a path someone else chose
  if (!path || !path.startsWith('/') || path.split('/').includes('..') || !basename(path).startsWith(`${m.name}_`)) return {};
  return { remove: path };
}

export function startLocalPathCleanup(client: Client, nodeName: string, log: Logger): { stop(): void } {
  const volumes = createInformer<Volume>(client, '/api/v1/persistentvolumes', { log });
  async function sync(name: string): Promise<void> {
    const v = volumes.get(name);
    const todo = v && cleanupOf(v, nodeName);
    if (!v || !todo) return;
    if (todo.remove) {
      await rm(todo.remove, { recursive: true, force: true });
      log.info('local volume data removed', { volume: name, path: todo.remove });
    }
    const finalizers = (v.metadata.finalizers ?? []).filter(f => f !== provisionerFinalizer);
    await client.update(`/api/v1/persistentvolumes/${encodeURIComponent(name)}`, { ...v, metadata: { ...v.metadata, finalizers } }).catch(err => {
      if (isNotFound(err)) return;
      if (isConflict(err)) { queue.add(name); return; }
      throw err;
    });
  }
  const queue = createWorkQueue(sync, { concurrency: 2, baseDelayMs: 500, maxDelayMs: 60_000, log });
  volumes.on('add', v => queue.add(v.metadata.name)).on('update', (_a, v) => queue.add(v.metadata.name));
  volumes.start();
  return { stop() { volumes.stop(); queue.shutdown(); } };
}
