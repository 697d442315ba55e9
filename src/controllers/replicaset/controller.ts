// The replica controller loop for ReplicaSets and ReplicationControllers: pods created from the
// template or deleted until the owner controls `replicas` active pods, orphans its selector
// matches adopted and pods it no longer matches released, and its status kept. Decisions are in
// the neighbouring modules; this file reads informers and sends the writes.

import type { Logger } from '../../api/log.ts';
import type { LabelSelector } from '../../api/selectors/label.ts';
import { matchesLabels, labelSelectorFromSet } from '../../api/selectors/label.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import { adoptPatch, claimOf, controllerRefOf, releasePatch, strategicMergePatch, type Owner } from '../owner-refs.ts';
import { byController } from '../controller-index.ts';
import { isNamespaceTerminating } from '../namespace-terminating.ts';
import { withoutFieldHistory } from '../without-field-history.ts';
import { ownedPodInformer, type OwnedPod } from '../owned-pods.ts';
import { isPodActive, isPodReady, isPodTerminating, nextAvailabilityMs } from '../pod-readiness.ts';
import { podsToDelete } from './deletion-rank.ts';
import { Expectations } from './expectations.ts';
import type { ReplicaKind, ReplicaOwner } from './kinds.ts';
import { podFromTemplate } from './pod-from-template.ts';
import { replicaStatus, statusChanged, type ReplicaStatus } from './replica-status.ts';

/** Kubernetes' BurstReplicas: the most pods one sync creates or deletes */
export const burstReplicas = 500;

export interface ReplicaControllerOptions {
  kind: ReplicaKind;
  /** an informer over every pod the process already runs (ownedPodView-shaped) */
  pods?: Informer<OwnedPod>;
  workers?: number;
  now?: () => number;
}

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function startReplicaController(client: Client, log: Logger, opts: ReplicaControllerOptions): { stop(): void } {
  const { kind } = opts;
  const now = opts.now ?? Date.now;
  const expectations = new Expectations(now);
  const events = eventRecorder(client, kind.component, log, undefined, now);
  const owners = createInformer<ReplicaOwner>(client, kind.collection, { log, transform: withoutFieldHistory });
  const ownPods = !opts.pods;
  const pods = opts.pods ?? ownedPodInformer(client, log);
  const ready = Promise.all([owners.synced(), pods.synced()]);

  const asOwner = (o: ReplicaOwner): Owner => ({ apiVersion: kind.apiVersion, kind: kind.kind, metadata: o.metadata });
  const target = (o: ReplicaOwner) => ({ apiVersion: kind.apiVersion, kind: kind.kind, metadata: o.metadata });
  // a sync reads the owner's own pods and its namespace's orphans, never the whole namespace
  const podIndex = byController(pods);

  function selectorOf(o: ReplicaOwner): LabelSelector | undefined {
    try { return kind.selector(o); } catch (err) { log.warn('invalid selector', { owner: objectKey(o), err: errText(err) }); return undefined; }
  }

  /** adopts and releases as claimOf decides; returns the pods the owner controls after that */
  async function claimPods(o: ReplicaOwner, selector: LabelSelector, candidates: OwnedPod[]): Promise<OwnedPod[]> {
    const owner = asOwner(o);
    const claimed: OwnedPod[] = [];
    let canAdopt: boolean | undefined;
    for (const pod of candidates) {
      const claim = claimOf(owner, selector, pod);
      if (claim === 'keep') { claimed.push(pod); continue; }
      const podPath = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods/${encodeURIComponent(pod.metadata.name)}`;
      try {
        if (claim === 'adopt') {
          // the cached owner may be stale: adopt only for an owner that is still there, not going
          if (canAdopt === undefined) {
            const fresh = await client.get<ReplicaOwner>(kind.path(o.metadata.namespace, o.metadata.name)).catch(err => { if (isNotFound(err)) return undefined; throw err; });
            canAdopt = !!fresh && fresh.metadata.uid === o.metadata.uid && !fresh.metadata.deletionTimestamp;
          }
          if (!canAdopt) continue;
          await client.patch(podPath, adoptPatch(owner, pod.metadata.uid), strategicMergePatch);
          claimed.push(pod);
        } else if (claim === 'release') {
          await client.patch(podPath, releasePatch(o.metadata.uid, pod.metadata.uid), strategicMergePatch);
        }
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
    // as Kubernetes does, no decisions on a view of pods the owner may no longer be entitled to
    if (canAdopt === false) throw new Error(`${kind.kind} ${objectKey(o)} is gone or being deleted; not adopting its pods`);
    return claimed;
  }

  /** pods of the owner's siblings (ReplicaSets of the same Deployment), for ranking deletions */
  function relatedPods(o: ReplicaOwner, own: OwnedPod[]): OwnedPod[] {
    const parent = controllerRefOf(o);
    if (!parent) return own;
    const siblings = owners.list().filter(s => s.metadata.namespace === o.metadata.namespace && controllerRefOf(s)?.uid === parent.uid);
    return siblings.flatMap(s => podIndex.controlledBy(s.metadata.uid));
  }

  /** creates in batches of 1, 2, 4, … and stops at the first batch with a failure */
  async function createPods(o: ReplicaOwner, key: string, n: number): Promise<Error | undefined> {
    const body = podFromTemplate(o.spec?.template, asOwner(o));
    const path = `/api/v1/namespaces/${encodeURIComponent(o.metadata.namespace)}/pods`;
    let done = 0;
    for (let batch = 1; done < n; batch *= 2) {
      const size = Math.min(batch, n - done);
      const results = await Promise.allSettled(Array.from({ length: size }, () => client.create<OwnedPod>(path, body)));
      let failure: Error | undefined;
      for (const r of results) {
        if (r.status === 'fulfilled') { events.record(target(o), 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.metadata.name}`); continue; }
        // counted as sent: the namespace's deletion will take the owner too
        if (isNamespaceTerminating(r.reason)) continue;
        failure ??= r.reason instanceof Error ? r.reason : new Error(String(r.reason));
        events.record(target(o), 'Warning', 'FailedCreate', `Error creating: ${errText(r.reason)}`);
        expectations.creationObserved(key);
      }
      done += size;
      if (failure) {
        // the creations never sent will never be seen
        for (let i = done; i < n; i++) expectations.creationObserved(key);
        return failure;
      }
    }
    return undefined;
  }

  async function deletePods(o: ReplicaOwner, key: string, victims: OwnedPod[]): Promise<Error | undefined> {
    expectations.expectDeletions(key, victims.map(p => objectKey(p)));
    const results = await Promise.allSettled(victims.map(p => client.delete(`/api/v1/namespaces/${encodeURIComponent(p.metadata.namespace)}/pods/${encodeURIComponent(p.metadata.name)}`)));
    let failure: Error | undefined;
    results.forEach((r, i) => {
      const p = victims[i]!;
      if (r.status === 'fulfilled') { events.record(target(o), 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`); return; }
      if (isNotFound(r.reason)) { expectations.deletionObserved(key, objectKey(p)); return; }
      expectations.deletionObserved(key, objectKey(p));
      failure ??= r.reason instanceof Error ? r.reason : new Error(String(r.reason));
      events.record(target(o), 'Warning', 'FailedDelete', `Error deleting: ${errText(r.reason)}`);
    });
    return failure;
  }

  async function writeStatus(o: ReplicaOwner, status: ReplicaStatus): Promise<void> {
    let cur = o;
    for (let attempt = 0; ; attempt++) {
      try {
        await client.update(`${kind.path(o.metadata.namespace, o.metadata.name)}/status`, { ...cur, apiVersion: kind.apiVersion, kind: kind.kind, status: { ...status, observedGeneration: cur.metadata.generation } });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 1) throw err;
        cur = await client.get<ReplicaOwner>(kind.path(o.metadata.namespace, o.metadata.name));
      }
    }
  }

  async function sync(key: string): Promise<SyncResult> {
    await ready;
    const o = owners.get(key);
    if (!o) { expectations.forget(key); return; }
    const selector = selectorOf(o);
    if (!selector) return;
    const needsSync = expectations.satisfied(key);
    const own = podIndex.controlledBy(o.metadata.uid);
    const active = await claimPods(o, selector, [...own, ...podIndex.orphansIn(o.metadata.namespace)].filter(isPodActive));
    const replicas = o.spec?.replicas ?? 1;
    let failure: { message: string; wantedMore: boolean } | undefined;
    if (needsSync && !o.metadata.deletionTimestamp) {
      const diff = active.length - replicas;
      let err: Error | undefined;
      if (diff < 0) {
        const n = Math.min(-diff, burstReplicas);
        expectations.expectCreations(key, n);
        err = await createPods(o, key, n);
      } else if (diff > 0) {
        const n = Math.min(diff, burstReplicas);
        err = await deletePods(o, key, podsToDelete(active, relatedPods(o, active), n, now()) as OwnedPod[]);
      }
      if (err) failure = { message: errText(err), wantedMore: diff < 0 };
    }
    const terminating = kind.reportsTerminating
      ? own.filter(p => isPodTerminating(p) && matchesLabels(selector, p.metadata.labels))
      : undefined;
    const minReadySeconds = o.spec?.minReadySeconds ?? 0;
    const status = replicaStatus({
      previous: o.status, generation: o.metadata.generation, minReadySeconds,
      templateLabels: labelSelectorFromSet(o.spec?.template?.metadata?.labels ?? {}),
      pods: active, terminating, failure, now: now(),
    });
    if (statusChanged(o.status, status, o.metadata.generation)) await writeStatus(o, status);
    if (failure) throw new Error(failure.message);
    // ready pods turn available once minReadySeconds have passed: look again then
    const next = nextAvailabilityMs(active.filter(isPodReady), minReadySeconds, now());
    return next !== undefined ? { requeueAfterMs: next - now() } : undefined;
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 100, maxDelayMs: 60_000, log });

  /** the owner a controller reference names, if it is one of ours and still there */
  function ownerByRef(pod: OwnedPod): ReplicaOwner | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== kind.kind) return undefined;
    const o = owners.get(`${pod.metadata.namespace}/${ref.name}`);
    return o && o.metadata.uid === ref.uid ? o : undefined;
  }

  function enqueueMatching(pod: OwnedPod): void {
    for (const o of owners.list()) {
      if (o.metadata.namespace !== pod.metadata.namespace) continue;
      const sel = selectorOf(o);
      if (sel && matchesLabels(sel, pod.metadata.labels)) queue.add(objectKey(o));
    }
  }

  function podGone(pod: OwnedPod): void {
    const o = ownerByRef(pod);
    if (!o) return;
    const key = objectKey(o);
    expectations.deletionObserved(key, objectKey(pod));
    queue.add(key);
  }

  function podAdded(pod: OwnedPod): void {
    if (pod.metadata.deletionTimestamp) return podGone(pod);
    if (controllerRefOf(pod)) {
      const o = ownerByRef(pod);
      if (!o) return;
      const key = objectKey(o);
      expectations.creationObserved(key);
      queue.add(key);
      return;
    }
    enqueueMatching(pod);
  }

  function podUpdated(old: OwnedPod, cur: OwnedPod): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    if (cur.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) return podGone(cur);
    const oldRef = controllerRefOf(old), curRef = controllerRefOf(cur);
    if (oldRef && oldRef.uid !== curRef?.uid) { const o = ownerByRef(old); if (o) queue.add(objectKey(o)); }
    if (curRef) { const o = ownerByRef(cur); if (o) queue.add(objectKey(o)); return; }
    if (oldRef || JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {})) enqueueMatching(cur);
  }

  owners
    .on('add', o => queue.add(objectKey(o)))
    .on('update', (_old, o) => queue.add(objectKey(o)))
    .on('delete', o => { expectations.forget(objectKey(o)); });
  pods
    .on('add', podAdded)
    .on('update', podUpdated)
    .on('delete', podGone);
  owners.start();
  if (ownPods) pods.start();
  return {
    stop() {
      owners.stop();
      if (ownPods) pods.stop();
      queue.shutdown();
    },
  };
}
