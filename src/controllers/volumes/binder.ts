// The persistentvolume-binder: claims are bound to volumes (Pending → Bound), volumes whose claim
// is gone are Released and handed to their reclaim policy, claims that need a new volume are
// marked for their class's provisioner. Decisions come from binder-decide.ts; this file keeps the
// informers, the two work queues and the writes, in Kubernetes' order (volume first, then claim,
// each spec before its status) so that an interrupted binding is finished by the next sync.

import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder, type EventTarget } from '../../client/events.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import { defaultClassOf } from '../../api/default-storage-class.ts';
import { decideClaim, decideVolume, type BinderEvent } from './binder-decide.ts';
import { annBetaStorageProvisioner, annBindCompleted, annBoundByController, annStorageProvisioner, type Claim, type StorageClass, type Volume, volumeBoundToClaim } from './claims.ts';
import { claimsOfPod, claimUsers, holdsClaims } from './claim-users.ts';
import type { Informer } from '../../client/informer.ts';
import type { CoreV1Pod } from '../../schema/generated/types.ts';

export interface BinderOptions {
  /** how often every claim and volume is looked at again (--pvclaimbinder-sync-period); default 15 s */
  resyncMs?: number;
  now?: () => number;
  /** the pod informer the process shares (podView's); by default its own */
  pods?: Informer<CoreV1Pod>;
}

const enc = encodeURIComponent;
const claimPath = (ns: string, name: string, sub = '') => `/api/v1/namespaces/${enc(ns)}/persistentvolumeclaims/${enc(name)}${sub}`;
const volumePath = (name: string, sub = '') => `/api/v1/persistentvolumes/${enc(name)}${sub}`;

export function startVolumeBinder(client: Client, log: Logger, o: BinderOptions = {}): { stop(): void } {
  const now = o.now ?? Date.now;
  const events = eventRecorder(client, 'persistentvolume-controller', log);
  const volumes = createInformer<Volume>(client, '/api/v1/persistentvolumes', { log });
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log });
  const classes = createInformer<StorageClass>(client, '/apis/storage.k8s.io/v1/storageclasses', { log });
  const { pods, index: users, owned } = claimUsers(client, log, o.pods);
  /** the last event told per object, so a resync does not repeat it every 15 s */
  const told = new Map<string, string>();

  const record = (target: EventTarget, e: BinderEvent | undefined) => {
    if (!e) return;
    const key = `${target.kind}/${target.metadata.namespace ?? ''}/${target.metadata.name}`;
    if (told.get(key) === `${e.reason}\n${e.message}`) return;
    told.set(key, `${e.reason}\n${e.message}`);
    events.record(target, e.type, e.reason, e.message);
  };
  const claimTarget = (c: Claim): EventTarget => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: c.metadata as EventTarget['metadata'] });
  const volumeTarget = (v: Volume): EventTarget => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: v.metadata as EventTarget['metadata'] });

  const world = {
    volume: (name: string) => volumes.get(name),
    volumes: () => volumes.list(),
    storageClass: (name: string) => classes.get(name),
    defaultClass: () => defaultClassOf(classes.list()),
    unscheduledUsers: (c: Claim) => users.users(objectKey(c)).filter(p => !p.nodeName && holdsClaims(p)).map(p => p.metadata.name).sort(),
  };

  async function updateVolumePhase(v: Volume, phase: string, message?: string): Promise<Volume> {
    if (v.status?.phase === phase) return v;
    return client.update<Volume>(volumePath(v.metadata.name!, '/status'), { ...v, status: { ...v.status, phase, message, lastPhaseTransitionTime: rfc3339(now()) } });
  }

  async function updateClaimStatus(c: Claim, phase: string, v?: Volume): Promise<Claim> {
    const status = { ...c.status, phase };
    if (v) {
      status.accessModes = v.spec?.accessModes;
      // capacity is the volume's when the claim becomes Bound, not rewritten afterwards
      if (c.status?.phase !== phase) status.capacity = v.spec?.capacity;
    } else {
      delete status.accessModes;
      delete status.capacity;
    }
    if (JSON.stringify(status) === JSON.stringify(c.status)) return c;
    return client.update<Claim>(claimPath(c.metadata.namespace!, c.metadata.name!, '/status'), { ...c, status });
  }

  async function bind(v: Volume, c: Claim): Promise<void> {
    if (!volumeBoundToClaim(v, c) || v.spec?.claimRef?.uid !== c.metadata.uid) {
      const annotations = { ...v.metadata.annotations };
      if (!volumeBoundToClaim(v, c)) annotations[annBoundByController] = 'yes';
      const claimRef = { kind: 'PersistentVolumeClaim', namespace: c.metadata.namespace, name: c.metadata.name, uid: c.metadata.uid, apiVersion: 'v1', resourceVersion: c.metadata.resourceVersion };
      v = await client.update<Volume>(volumePath(v.metadata.name!), { ...v, metadata: { ...v.metadata, annotations }, spec: { ...v.spec, claimRef } });
      log.info('claim bound to volume', { claim: objectKey(c), volume: v.metadata.name });
    }
    v = await updateVolumePhase(v, 'Bound');
    const annotations = { ...c.metadata.annotations };
    let dirty = false;
    let volumeName = c.spec?.volumeName;
    if (volumeName !== v.metadata.name) {
      volumeName = v.metadata.name;
      annotations[annBoundByController] ??= 'yes';
      dirty = true;
    }
    if (annotations[annBindCompleted] === undefined) { annotations[annBindCompleted] = 'yes'; dirty = true; }
    if (dirty) c = await client.update<Claim>(claimPath(c.metadata.namespace!, c.metadata.name!), { ...c, metadata: { ...c.metadata, annotations }, spec: { ...c.spec, volumeName } });
    await updateClaimStatus(c, 'Bound', v);
  }

  async function syncClaim(key: string): Promise<void> {
    let c = claims.get(key);
    if (!c) return;
    const action = decideClaim(c, world);
    switch (action.kind) {
      case 'none': return;
      case 'assignClass':
        await client.update(claimPath(c.metadata.namespace!, c.metadata.name!), { ...c, spec: { ...c.spec, storageClassName: action.className } });
        return;
      case 'bind': {
        const v = volumes.get(action.volume);
        if (v) await bind(v, c);
        return;
      }
      case 'provision': {
        if (c.metadata.annotations?.[annStorageProvisioner] !== action.provisioner) {
          const annotations = { ...c.metadata.annotations, [annStorageProvisioner]: action.provisioner, [annBetaStorageProvisioner]: action.provisioner };
          c = await client.update<Claim>(claimPath(c.metadata.namespace!, c.metadata.name!), { ...c, metadata: { ...c.metadata, annotations } });
        }
        record(claimTarget(c), action.event);
        await updateClaimStatus(c, 'Pending');
        return;
      }
      case 'pending':
        record(claimTarget(c), action.event);
        await updateClaimStatus(c, 'Pending');
        return;
      case 'lost':
        if (c.status?.phase !== 'Lost') {
          await updateClaimStatus(c, 'Lost');
          record(claimTarget(c), action.event);
        }
    }
  }

  async function syncVolume(name: string): Promise<void> {
    const v = volumes.get(name);
    if (!v) return;
    const ref = v.spec?.claimRef;
    let claim = ref?.uid ? claims.get(`${ref.namespace}/${ref.name}`) : undefined;
    if (ref?.uid && (!claim || claim.metadata.uid !== ref.uid) && v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') {
      // the informer may lag behind a claim just made: ask the API before releasing the volume
      claim = await client.get<Claim>(claimPath(ref.namespace!, ref.name!)).catch(err => { if (isNotFound(err)) return undefined; throw err; });
    }
    const action = decideVolume(v, claim);
    switch (action.kind) {
      case 'none': return;
      case 'phase': await updateVolumePhase(v, action.phase); return;
      case 'syncClaim': claimQueue.add(action.claim); return;
      case 'release': {
        let current = v;
        if (v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') {
          current = await updateVolumePhase(v, 'Released');
          log.info('volume released', { volume: name, reclaimPolicy: v.spec?.persistentVolumeReclaimPolicy ?? 'Retain' });
        }
        if (action.reclaim === 'fail' && current.status?.phase !== 'Failed') {
          await updateVolumePhase(current, 'Failed', action.event?.message);
          record(volumeTarget(current), action.event);
        }
        return;
      }
      case 'unbind': {
        const annotations = { ...v.metadata.annotations };
        delete annotations[annBoundByController];
        const spec = { ...v.spec, claimRef: action.keepPreBinding ? { ...v.spec!.claimRef, uid: undefined } : undefined };
        const updated = await client.update<Volume>(volumePath(name), { ...v, metadata: { ...v.metadata, annotations }, spec });
        await updateVolumePhase(updated, 'Available');
      }
    }
  }

  // nothing is decided before every informer has listed (a claim judged before its class is
  // known would be told the class does not exist); a conflict means the informer is behind the
  // write just made: the event that follows brings the key back
  const synced = () => [volumes, claims, classes, pods].every(i => (i as Informer).hasSynced());
  const quiet = (fn: (key: string) => Promise<void>) => async (key: string): Promise<SyncResult> => {
    if (!synced()) return { requeueAfterMs: 200 };
    try { await fn(key); } catch (err) { if (!isConflict(err) && !isNotFound(err)) throw err; }
  };
  const claimQueue = createWorkQueue(quiet(syncClaim), { concurrency: 4, baseDelayMs: 200, maxDelayMs: 30_000, log });
  const volumeQueue = createWorkQueue(quiet(syncVolume), { concurrency: 4, baseDelayMs: 200, maxDelayMs: 30_000, log });
  const claimsOfVolume = (v: Volume) => { const r = v.spec?.claimRef; if (r?.name) claimQueue.add(`${r.namespace}/${r.name}`); };

  volumes
    .on('add', v => { volumeQueue.add(v.metadata.name!); claimsOfVolume(v); enqueueWaitingClaims(); })
    .on('update', (a, v) => {
      volumeQueue.add(v.metadata.name!);
      claimsOfVolume(v);
      // a volume just become Available may be what a waiting claim needs
      if (v.status?.phase === 'Available' && a.status?.phase !== 'Available') enqueueWaitingClaims();
    })
    .on('delete', v => { told.delete(`PersistentVolume//${v.metadata.name}`); claimsOfVolume(v); });
  claims
    .on('add', c => claimQueue.add(objectKey(c)))
    .on('update', (_a, c) => claimQueue.add(objectKey(c)))
    .on('delete', c => {
      told.delete(`PersistentVolumeClaim/${objectKey(c)}`);
      if (c.spec?.volumeName) volumeQueue.add(c.spec.volumeName);
      // a volume pre-bound by the provisioner may not be named by the claim yet
      for (const v of volumes.list()) if (v.spec?.claimRef?.uid === c.metadata.uid) volumeQueue.add(v.metadata.name!);
    });
  classes.on('add', () => enqueueWaitingClaims()).on('update', () => enqueueWaitingClaims());
  // a new pod naming a waiting claim changes what the claim waits for (WaitForPodScheduled)
  pods.on('add', p => { if (!p.spec?.nodeName) for (const c of claimsOfPod(p)) claimQueue.add(`${p.metadata?.namespace}/${c}`); });

  function enqueueWaitingClaims(): void {
    for (const c of claims.list()) if (!c.spec?.volumeName) claimQueue.add(objectKey(c));
  }

  for (const i of [volumes, claims, classes, pods] as Informer[]) i.start();
  const resync = setInterval(() => {
    for (const c of claims.list()) claimQueue.add(objectKey(c));
    for (const v of volumes.list()) volumeQueue.add(v.metadata.name!);
  }, o.resyncMs ?? 15_000);
  resync.unref();

  return {
    stop() {
      clearInterval(resync);
      for (const i of [volumes, claims, classes] as Informer[]) i.stop();
      if (owned) pods.stop();
      claimQueue.shutdown();
      volumeQueue.shutdown();
    },
  };
}
