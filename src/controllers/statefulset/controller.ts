// The StatefulSet controller loop: reads sets, their pods, revisions and claims from informers,
// asks sync-plan.ts what to do, sends the writes with Kubernetes' events, records the status and
// keeps revisionHistoryLimit. Pods are adopted and released by selector among those whose names
// make them members.

import type { Logger } from '../../api/log.ts';
import { labelSelectorFromObject } from '../../api/selectors/label.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { CoreV1PersistentVolumeClaim, CoreV1Pod } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';
import { deleteRevision, ownedRevisions } from '../history/history-client.ts';
import { revisionsToPrune, templateOf, type Revision } from '../history/revisions.ts';
import { adoptPatch, claimOf, controllerRefOf, releasePatch, strategicMergePatch } from '../owner-refs.ts';
import { byNamespace } from '../../client/namespace-index.ts';
import { ownedPodInformer, type OwnedPod } from '../owned-pods.ts';
import { isMemberOf, podRevision, type StatefulSet } from './identity.ts';
import { statefulSetRevisions } from './revisions.ts';
import { completeRollingUpdate, planSync, statusChanged, type Action } from './sync-plan.ts';

type Claim = ServedInNamespace<CoreV1PersistentVolumeClaim>;
type Rev = ServedInNamespace<Revision>;

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const setsPath = (ns: string, name?: string) => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/statefulsets${name ? `/${encodeURIComponent(name)}` : ''}`;
const podsPath = (ns: string, name?: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods${name ? `/${encodeURIComponent(name)}` : ''}`;
const claimsPath = (ns: string, name?: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/persistentvolumeclaims${name ? `/${encodeURIComponent(name)}` : ''}`;

export interface StatefulSetControllerOptions {
  now?: () => number;
  workers?: number;
  /** an informer over every pod the process already runs (ownedPodView-shaped); by default its own */
  pods?: Informer<OwnedPod>;
}

export function startStatefulSetController(client: Client, log: Logger, opts: StatefulSetControllerOptions = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const events = eventRecorder(client, 'statefulset-controller', log, undefined, now);
  const sets = createInformer<StatefulSet>(client, '/apis/apps/v1/statefulsets', { log });
  const pods = opts.pods ?? ownedPodInformer(client, log);
  const revisions = createInformer<Rev>(client, '/apis/apps/v1/controllerrevisions', { log });
  const claims = createInformer<Claim>(client, '/api/v1/persistentvolumeclaims', { log, transform: (c: Claim) => ({ ...c, metadata: { ...c.metadata, managedFields: undefined }, spec: {} }) });
  const podsIn = byNamespace(pods);
  /** pods this controller deleted, by uid, and when */
  const deleting = new Map<string, number>();
  const revisionsIn = byNamespace(revisions);
  const informers: Informer[] = [sets, pods, revisions, claims];
  const ready = Promise.all(informers.map(i => i.synced()));

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, log });
  const enqueueSet = (s: StatefulSet) => queue.add(objectKey(s));
  const setsOfPod = (p: OwnedPod): StatefulSet[] => {
    const ref = controllerRefOf(p);
    if (ref) {
      if (ref.kind !== 'StatefulSet') return [];
      const s = sets.get(`${p.metadata.namespace}/${ref.name}`);
      return s && s.metadata.uid === ref.uid ? [s] : [];
    }
    // an orphan: any set whose selector matches may adopt it
    return sets.list().filter(s => s.metadata.namespace === p.metadata.namespace && isMemberOf(s, p) && matches(s, p));
  };
  const matches = (s: StatefulSet, p: CoreV1Pod) => { try { return claimOf(owner(s), labelSelectorFromObject(s.spec?.selector), p) !== 'ignore'; } catch { return false; } };
  const onPod = (p: OwnedPod) => setsOfPod(p).forEach(enqueueSet);
  sets.on('add', enqueueSet).on('update', (_o, n) => enqueueSet(n)).on('delete', s => queue.forget(objectKey(s)));
  pods.on('add', onPod).on('update', (o, n) => { onPod(n); if (controllerRefOf(o)?.uid !== controllerRefOf(n)?.uid) onPod(o); }).on('delete', onPod);
  const onRevision = (r: Rev) => { const ref = controllerRefOf(r); if (ref?.kind === 'StatefulSet') { const s = sets.get(`${r.metadata.namespace}/${ref.name}`); if (s) enqueueSet(s); } };
  revisions.on('delete', onRevision);
  claims.on('update', (_o, c) => { const s = sets.list().find(x => x.metadata.namespace === c.metadata.namespace && (x.spec?.volumeClaimTemplates ?? []).some(t => c.metadata.name.startsWith(`${t.metadata?.name}-${x.metadata.name}-`))); if (s) enqueueSet(s); }).on('delete', c => { for (const s of sets.list()) if (s.metadata.namespace === c.metadata.namespace) enqueueSet(s); });

  const owner = (s: StatefulSet) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: s.metadata });
  const target = owner;

  /** the set's pods: those it controls that it still selects, and member orphans it adopts */
  async function claimPods(set: StatefulSet): Promise<OwnedPod[]> {
    const selector = labelSelectorFromObject(set.spec?.selector);
    const out: OwnedPod[] = [];
    for (const p of podsIn(set.metadata.namespace)) {
      const claim = claimOf(owner(set), selector, p);
      if (claim === 'keep') out.push(p);
      else if (claim === 'adopt' && isMemberOf(set, p)) {
        try { out.push(await client.patch(podsPath(p.metadata.namespace, p.metadata.name), adoptPatch(owner(set), p.metadata.uid), strategicMergePatch)); } catch (err) { if (!isNotFound(err)) throw err; }
      } else if (claim === 'release') {
        await client.patch(podsPath(p.metadata.namespace, p.metadata.name), releasePatch(set.metadata.uid, p.metadata.uid), strategicMergePatch).catch(err => { if (!isNotFound(err)) throw err; });
      }
    }
    return out;
  }

  async function run(set: StatefulSet, a: Action): Promise<'ok' | 'stop'> {
    const ns = set.metadata.namespace;
    const name = set.metadata.name;
    switch (a.kind) {
      case 'createClaim':
        try {
          await client.create(claimsPath(ns), a.claim);
          events.record(target(set), 'Normal', 'SuccessfulCreate', `create Claim ${a.claim.metadata!.name} Pod ${a.pod} in StatefulSet ${name} success`);
        } catch (err) {
          if (isAlreadyExists(err)) return 'ok';
          events.record(target(set), 'Warning', 'FailedCreate', `create Claim ${a.claim.metadata!.name} for Pod ${a.pod} in StatefulSet ${name} failed error: ${errText(err)}`);
          throw err;
        }
        return 'ok';
      case 'createPod':
        try {
          await client.create(podsPath(ns), a.pod);
          events.record(target(set), 'Normal', 'SuccessfulCreate', `create Pod ${a.pod.metadata!.name} in StatefulSet ${name} successful`);
        } catch (err) {
          // the informer has yet to show a pod made in an earlier round
          if (isAlreadyExists(err)) return 'stop';
          events.record(target(set), 'Warning', 'FailedCreate', `create Pod ${a.pod.metadata!.name} in StatefulSet ${name} failed error: ${errText(err)}`);
          throw err;
        }
        return 'ok';
      case 'deletePod':
        // a pod this controller has just deleted may still look untouched in the informer: one
        // delete is enough (it is graceful; its deletionTimestamp arrives with the next event)
        if (deleting.has(a.pod.metadata!.uid!) && Date.now() - deleting.get(a.pod.metadata!.uid!)! < 30_000) return 'ok';
        try {
          await client.delete(podsPath(ns, a.pod.metadata!.name!), { preconditions: { uid: a.pod.metadata!.uid } });
          deleting.set(a.pod.metadata!.uid!, Date.now());
          for (const [uid, at] of deleting) if (Date.now() - at >= 30_000) deleting.delete(uid);
          events.record(target(set), 'Normal', 'SuccessfulDelete', `delete Pod ${a.pod.metadata!.name} in StatefulSet ${name} successful`);
        } catch (err) {
          if (isNotFound(err)) return 'ok';
          events.record(target(set), 'Warning', 'FailedDelete', `delete Pod ${a.pod.metadata!.name} in StatefulSet ${name} failed error: ${errText(err)}`);
          throw err;
        }
        return 'ok';
      case 'relabelPod':
        await client.patch(podsPath(ns, a.pod.metadata!.name!), { metadata: { labels: a.labels } });
        return 'ok';
      case 'setClaimOwners':
        await client.patch(claimsPath(ns, a.claim.metadata!.name!), { metadata: { ownerReferences: a.ownerReferences, resourceVersion: a.claim.metadata!.resourceVersion } });
        return 'ok';
    }
  }

  async function writeStatus(set: StatefulSet, status: NonNullable<StatefulSet['status']>): Promise<void> {
    let current = set;
    for (let attempt = 0; ; attempt++) {
      if (!statusChanged(current.status, status)) return;
      try { await client.update(`${setsPath(set.metadata.namespace, set.metadata.name)}/status`, { ...current, status }); return; } catch (err) {
        if (!isConflict(err) || attempt >= 3) throw err;
        current = await client.get(setsPath(set.metadata.namespace, set.metadata.name));
        if (current.metadata.uid !== set.metadata.uid) return;
      }
    }
  }

  async function sync(key: string): Promise<SyncResult> {
    await ready;
    const set = sets.get(key);
    if (!set) return;
    const owned = await claimPods(set);
    const revs = await ownedRevisions(client, owner(set), labelSelectorFromObject(set.spec?.selector), revisionsIn(set.metadata.namespace));
    const { current, update, collisionCount, sorted } = await statefulSetRevisions(client, set, revs);
    const plan = planSync({
      set, pods: owned, collisionCount, now: now(),
      current: { name: current.metadata.name, template: templateOf(current) },
      update: { name: update.metadata.name, template: templateOf(update) },
      claim: name => claims.get(`${set.metadata.namespace}/${name}`),
    });
    let failure: unknown;
    if (plan.parallel) {
      const results = await Promise.allSettled(plan.actions.map(a => run(set, a)));
      failure = results.find(r => r.status === 'rejected')?.reason;
    } else {
      try { for (const a of plan.actions) if ((await run(set, a)) === 'stop') break; } catch (err) { failure = err; }
    }
    await writeStatus(set, completeRollingUpdate(set, plan.status));
    const live = new Set([current.metadata.name, update.metadata.name, ...owned.map(podRevision)]);
    for (const r of revisionsToPrune(sorted, r => live.has(r.metadata.name), set.spec?.revisionHistoryLimit ?? 10)) await deleteRevision(client, r);
    if (failure) throw failure;
    if (plan.recheckAtMs !== undefined) return { requeueAfterMs: Math.max(0, plan.recheckAtMs - now()) };
  }

  for (const i of informers) if (i !== opts.pods) i.start();
  return {
    stop() {
      queue.shutdown();
      for (const i of informers) if (i !== opts.pods) i.stop();
    },
  };
}
