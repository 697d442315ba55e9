// pvc-protection and pv-protection: a claim being deleted keeps its kubernetes.io/pvc-protection
// finalizer while a pod that has not finished uses it; a volume being deleted keeps its
// kubernetes.io/pv-protection finalizer while it is Bound. Then the finalizer goes and the API
// server removes the object. (The finalizers are added on create by the API server, as
// Kubernetes' StorageObjectInUseProtection admission plugin adds them.)

import type { Logger } from '../../api/log.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { CoreV1PersistentVolume, CoreV1Pod } from '../../schema/generated/types.ts';
import type { Claim, Volume } from './claims.ts';
import { claimsOfPod, claimUser, claimUsers, holdsClaims, type ClaimUser } from './claim-users.ts';
import type { Informer } from '../../client/informer.ts';

export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

/** a claim is in use while any pod naming it has not finished */
export const claimInUse = (users: ClaimUser[]) => users.some(holdsClaims);

/** a volume is in use while it is Bound */
export const volumeInUse = (v: CoreV1PersistentVolume) => v.status?.phase === 'Bound';

const deletingWith = (o: { metadata: { deletionTimestamp?: string | null; finalizers?: string[] } }, f: string) => !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(f);

async function dropFinalizer(client: Client, path: string, obj: { metadata: { finalizers?: string[] } }, finalizer: string): Promise<void> {
  const finalizers = (obj.metadata.finalizers ?? []).filter(f => f !== finalizer);
  await client.update(path, { ...obj, metadata: { ...obj.metadata, finalizers } }).catch(err => { if (!isNotFound(err)) throw err; });
}

export function startPvcProtectionController(client: Client, log: Logger, o: { pods?: Informer<CoreV1Pod> } = {}): { stop(): void } {
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log });
  const { pods, index: users, owned } = claimUsers(client, log, o.pods);

  async function sync(key: string): Promise<void> {
    const c = claims.get(key);
    if (!c || !deletingWith(c, pvcProtectionFinalizer)) return;
    if (claimInUse(users.users(key))) return;
    // the informer may not have seen a pod made a moment ago: the API has the last word
    const ns = c.metadata.namespace!;
    const live = await client.list<{ items: CoreV1Pod[] }>(`/api/v1/namespaces/${encodeURIComponent(ns)}/pods`);
    if (live.items.some(p => holdsClaims({ phase: p.status?.phase } as ClaimUser) && claimsOfPod(p).includes(c.metadata.name!))) return;
    await dropFinalizer(client, `/api/v1/namespaces/${encodeURIComponent(ns)}/persistentvolumeclaims/${encodeURIComponent(c.metadata.name!)}`, c, pvcProtectionFinalizer);
    log.info('claim no longer in use, finalizer removed', { claim: key });
  }

  const queue = createWorkQueue(async key => { try { await sync(key); } catch (err) { if (!isConflict(err)) throw err; queue.add(key); } }, { concurrency: 2, baseDelayMs: 200, maxDelayMs: 30_000, log });
  const ofPod = (p: ClaimUser) => { for (const c of p.claims) queue.add(`${p.metadata.namespace}/${c}`); };
  claims.on('add', c => queue.add(objectKey(c))).on('update', (_a, c) => queue.add(objectKey(c)));
  pods
    .on('update', (_a, p) => { const u = claimUser(p); if (!holdsClaims(u)) ofPod(u); })
    .on('delete', p => ofPod(claimUser(p)));
  pods.start();
  void pods.synced().then(() => claims.start());
  return { stop() { claims.stop(); if (owned) pods.stop(); queue.shutdown(); } };
}

export function startPvProtectionController(client: Client, log: Logger): { stop(): void } {
  const volumes = createInformer<Volume>(client, '/api/v1/persistentvolumes', { log });
  async function sync(name: string): Promise<void> {
    const v = volumes.get(name);
    if (!v || !deletingWith(v, pvProtectionFinalizer) || volumeInUse(v)) return;
    await dropFinalizer(client, `/api/v1/persistentvolumes/${encodeURIComponent(name)}`, v, pvProtectionFinalizer);
    log.info('volume no longer bound, finalizer removed', { volume: name });
  }
  const queue = createWorkQueue(async key => { try { await sync(key); } catch (err) { if (!isConflict(err)) throw err; queue.add(key); } }, { concurrency: 2, baseDelayMs: 200, maxDelayMs: 30_000, log });
  volumes.on('add', v => queue.add(v.metadata.name!)).on('update', (_a, v) => queue.add(v.metadata.name!));
  volumes.start();
  return { stop() { volumes.stop(); queue.shutdown(); } };
}
