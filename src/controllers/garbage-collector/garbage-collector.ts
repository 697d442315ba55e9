// The garbage collector, as kube-controller-manager runs it: a dependency graph built from
// metadata-only informers over every resource discovery lists (monitors.ts, graph.ts), and two
// queues of nodes to look at. attemptToDelete: objects whose owners may be gone (collected, or
// their dangling references removed) and owners deleting their dependents first (foreground).
// attemptToOrphan: owners deleted with the orphan finalizer, whose dependents lose the reference
// before the finalizer goes. Decisions are in decisions.ts; this file reads and writes the API.

import type { Logger } from '../../api/log.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { resourcePath } from '../../client/paths.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import {
  decideDeletingDependents, decideItem, invalidNamespaceMessage, invalidNamespaceReason, removeFinalizerPatch,
  removeReferencesPatch, unblockReferencesPatch, verdictFor, type Propagation, type Verdict,
} from './decisions.ts';
import { DependencyGraph, type GraphNode } from './graph.ts';
import { foregroundFinalizer, orphanFinalizer, ownerIdentity, type Identity, type ObjectMeta, type OwnerReference } from './identity.ts';
import { Monitors } from './monitors.ts';

export interface GarbageCollectorOptions {
  /** objects looked at in parallel (--concurrent-gc-syncs; Kubernetes' default is 20) */
  workers?: number;
  /** how often discovery is read again for new resources; Kubernetes looks every 30 s */
  resyncMs?: number;
  /** the longest the workers wait for the first lists before starting anyway */
  syncTimeoutMs?: number;
}

const orphanParallel = 10;

const metadataAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const mergePatch = 'application/merge-patch+json';

/** the item will not resolve by retrying (a cluster-scoped object naming a namespaced owner) */
class Unresolvable extends Error {}

/** discovery does not know the kind (yet: a new resource is found at the next look, a typo never) */
class UnknownKind extends Error {
  constructor(apiVersion: string, kind: string) { super(`unable to get REST mapping for ${apiVersion}/${kind}.`); }
}

export function startGarbageCollector(client: Client, log: Logger, opts: GarbageCollectorOptions = {}): { stop(): void; graph: DependencyGraph; monitors: Monitors } {
  const workers = opts.workers ?? 20;
  const events = eventRecorder(client, 'garbage-collector-controller', log);
  let deleteQueue: ReturnType<typeof createWorkQueue>;
  let orphanQueue: ReturnType<typeof createWorkQueue>;
  const graph: DependencyGraph = new DependencyGraph({
    attemptToDelete: n => deleteQueue.add(n.identity.uid),
    attemptToOrphan: n => orphanQueue.add(n.identity.uid),
    invalidNamespace(dep, ownerUid) {
      const ref = dep.owners.find(r => r.uid === ownerUid);
      if (!ref) return;
      const id = dep.identity;
      log.info('object references an owner in another namespace', { object: `${id.namespace}/${id.name}`, owner: ref.name });
      events.record({ apiVersion: id.apiVersion, kind: id.kind, metadata: { name: id.name, namespace: id.namespace || undefined, uid: id.uid } }, 'Warning', invalidNamespaceReason, invalidNamespaceMessage(id, ref));
    },
  });
  const monitors = new Monitors(client, log, (type, identity, meta, oldMeta) => graph.observe(type, identity, meta, oldMeta));
  const mapper = monitors.mapper;

  /** where an object lives; throws while discovery does not know its kind (retried) */
  function pathOf(id: Identity): string {
    const m = mapper.map(id.apiVersion, id.kind);
    if (!m) throw new UnknownKind(id.apiVersion, id.kind);
    if (m.namespaced && !id.namespace) throw new Unresolvable('cluster-scoped objects cannot refer to namespaced owners');
    return resourcePath({ ...m, namespace: m.namespaced ? id.namespace : undefined, name: id.name });
  }

  /** the object's metadata, or undefined when it is not there */
  async function getMeta(path: string): Promise<ObjectMeta | undefined> {
    try {
      const o = await client.request<{ metadata?: ObjectMeta }>('GET', path, undefined, { headers: { accept: metadataAccept } });
      return o.metadata ?? {};
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async function verdictOf(item: GraphNode, ref: OwnerReference): Promise<Verdict> {
    const namespaced = ownerIdentity(ref, item.identity.namespace);
    if (graph.absentOwners.has(ownerIdentity(ref, '')) || graph.absentOwners.has(namespaced)) return 'dangling';
    const m = mapper.map(ref.apiVersion, ref.kind);
    if (!m) throw new UnknownKind(ref.apiVersion, ref.kind);
    if (m.namespaced && !item.identity.namespace) throw new Unresolvable('cluster-scoped objects cannot refer to namespaced owners');
    const id = m.namespaced ? namespaced : ownerIdentity(ref, '');
    const owner = await getMeta(pathOf(id));
    const verdict = verdictFor(ref, owner);
    if (verdict === 'dangling') graph.absentOwners.add(id);
    return verdict;
  }

  async function deleteObject(item: GraphNode, latest: ObjectMeta, policy: Propagation): Promise<void> {
    const path = pathOf(item.identity);
    const options = (rv?: string) => ({ propagationPolicy: policy, preconditions: { uid: item.identity.uid, ...(rv ? { resourceVersion: rv } : {}) } });
    log.info('deleting object', { object: describe(item.identity), propagationPolicy: policy });
    try {
      await client.delete(path, options(latest.resourceVersion));
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err)) throw err;
      // changed meanwhile: still delete it if the owners it had are the owners it has
      const live = await getMeta(path);
      if (!live) return;
      if (live.uid !== item.identity.uid || JSON.stringify(live.ownerReferences ?? []) !== JSON.stringify(latest.ownerReferences ?? [])) throw err;
      await client.delete(path, options()).catch(e => { if (!isNotFound(e)) throw e; });
    }
  }

  async function removeFinalizer(item: GraphNode, finalizer: string): Promise<void> {
    const path = pathOf(item.identity);
    for (let attempt = 0; ; attempt++) {
      const meta = await getMeta(path);
      if (!meta || meta.uid !== item.identity.uid) return;
      const patch = removeFinalizerPatch(meta, finalizer);
      if (!patch) return;
      try {
        await client.patch(path, patch, mergePatch);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  /** takes the references to these owners out of the object, again on a write conflict */
  async function removeReferences(item: GraphNode, uids: string[]): Promise<void> {
    const path = pathOf(item.identity);
    for (let attempt = 0; ; attempt++) {
      const meta = await getMeta(path);
      if (!meta || meta.uid !== item.identity.uid) return;
      if (!(meta.ownerReferences ?? []).some(r => uids.includes(r.uid))) return;
      try {
        await client.patch(path, removeReferencesPatch(meta, uids), mergePatch);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  const quietRetries = new Map<string, number>();

  async function attemptToDelete(uid: string): Promise<SyncResult> {
    await ready;
    const item = graph.get(uid);
    if (!item) { quietRetries.delete(uid); return; }
    // being deleted is a one-way trip: its dependents are looked at when it is gone
    if (item.beingDeleted && !item.deletingDependents) return;
    try {
      const path = pathOf(item.identity);
      const latest = await getMeta(path);
      if (!latest || latest.uid !== item.identity.uid) {
        graph.virtualDelete(item.identity);
        return;
      }
      if (item.deletingDependents) {
        const d = decideDeletingDependents(item);
        if (d.removeFinalizer) {
          log.info('dependents deleted; removing the foregroundDeletion finalizer', { object: describe(item.identity) });
          await removeFinalizer(item, foregroundFinalizer);
        } else {
          for (const dep of d.deleteDependents) deleteQueue.add(dep.identity.uid);
        }
        return;
      }
      const refs = latest.ownerReferences ?? [];
      if (refs.length) {
        const verdicts = [];
        for (const ref of refs) verdicts.push({ ref, verdict: await verdictOf(item, ref) });
        const action = decideItem(latest, verdicts, [...item.dependents]);
        if (action.kind === 'removeReferences') {
          log.info('removing references to absent or deleting owners', { object: describe(item.identity), owners: action.uids });
          await removeReferences(item, action.uids);
        } else if (action.kind === 'delete') {
          if (action.unblockFirst) await client.patch(path, unblockReferencesPatch(latest), mergePatch);
          await deleteObject(item, latest, action.policy);
        }
      }
    } catch (err) {
      if (err instanceof Unresolvable) {
        log.debug('not collectable', { object: describe(item.identity), reason: err.message });
        return;
      }
      // retried quietly, as Kubernetes does: common while a new resource is not discovered yet
      if (err instanceof UnknownKind) {
        log.debug('kind not known yet', { object: describe(item.identity), reason: err.message });
        return later(uid);
      }
      throw err;
    }
    // a virtual node an informer has not shown yet is looked at again, so it cannot linger
    if (!item.observed && graph.get(uid) === item) return later(uid);
    quietRetries.delete(uid);
  }

  /** another look at this node after a delay that grows with each call, until it is settled */
  function later(uid: string): SyncResult {
    const n = quietRetries.get(uid) ?? 0;
    quietRetries.set(uid, n + 1);
    return { requeueAfterMs: Math.min(100 * 2 ** n, 60_000) };
  }

  async function attemptToOrphan(uid: string): Promise<SyncResult> {
    await ready;
    const owner = graph.get(uid);
    if (!owner) return;
    const dependents = [...owner.dependents];
    const failures: string[] = [];
    // a few at a time: an owner may have thousands of dependents
    const pending = [...dependents];
    await Promise.all(Array.from({ length: Math.min(orphanParallel, pending.length) }, async () => {
      for (let dep = pending.shift(); dep; dep = pending.shift()) {
        await removeReferences(dep, [owner.identity.uid]).catch(err => {
          if (!(err instanceof Unresolvable)) failures.push(`${describe(dep!.identity)}: ${err instanceof Error ? err.message : String(err)}`);
        });
      }
    }));
    if (failures.length) throw new Error(`orphaning dependents of ${describe(owner.identity)} failed: ${failures.join('; ')}`);
    log.info('dependents orphaned; removing the orphan finalizer', { object: describe(owner.identity), dependents: dependents.length });
    await removeFinalizer(owner, orphanFinalizer);
  }

  deleteQueue = createWorkQueue(attemptToDelete, { concurrency: workers, baseDelayMs: 50, maxDelayMs: 60_000, log });
  orphanQueue = createWorkQueue(attemptToOrphan, { concurrency: workers, baseDelayMs: 50, maxDelayMs: 60_000, log });

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let firstSync!: () => void;
  const discovered = new Promise<void>(r => { firstSync = r; });
  const resync = () => {
    if (stopped) return;
    monitors.sync().then(firstSync, err => log.warn('garbage collector discovery failed; retrying', { err: String(err) })).finally(() => {
      if (stopped) return;
      timer = setTimeout(resync, opts.resyncMs ?? 30_000);
      timer.unref();
    });
  };
  // the workers wait for the informers' first lists (as Kubernetes' collector waits for its
  // caches), so that owners listed a moment after their dependents need no lookups; a resource
  // that cannot be listed holds them back for a while only
  const ready = discovered.then(() => Promise.race([monitors.synced(), new Promise<void>(r => setTimeout(r, opts.syncTimeoutMs ?? 30_000).unref())]))
    .then(() => log.info('garbage collector caches synced', { resources: monitors.resources().length }));
  resync();

  return {
    graph,
    monitors,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      monitors.stop();
      deleteQueue.shutdown();
      orphanQueue.shutdown();
    },
  };
}

function describe(id: Identity): string {
  return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}
