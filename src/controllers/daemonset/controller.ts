// The DaemonSet controller loop: nodes, pods and revisions from informers; one pod per node that
// should run it (made already pinned to the node by its required node affinity, for the
// scheduler to bind), the rolling update, revision history and status with Kubernetes' events.
// Creations and deletions not yet seen by the pod informer are remembered, so a sync never
// makes a node's pod twice.

import type { Logger } from '../../api/log.ts';
import { labelSelectorFromObject } from '../../api/selectors/label.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { AppsV1DaemonSetStatus, CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import type { Served, ServedInNamespace } from '../../schema/served.ts';
import { deleteRevision, ownedRevisions } from '../history/history-client.ts';
import { revisionHashLabel, revisionsToPrune, type Revision } from '../history/revisions.ts';
import { adoptPatch, claimOf, controllerRefOf, releasePatch, strategicMergePatch } from '../owner-refs.ts';
import { nextAvailabilityMs } from '../pod-readiness.ts';
import { byNamespace } from '../../client/namespace-index.ts';
import { ownedPodInformer, type OwnedPod } from '../owned-pods.ts';
import { daemonPod } from './daemon-pods.ts';
import { daemonStatus, daemonStatusChanged } from './daemon-status.ts';
import { daemonSetHistory } from './history.ts';
import { planManage } from './manage.ts';
import { targetNode, type DaemonSet } from './placement.ts';
import { planRollingUpdate } from './rolling-update.ts';

type Rev = ServedInNamespace<Revision>;
type Node = Served<CoreV1Node>;

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const dsPath = (ns: string, name: string) => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/daemonsets/${encodeURIComponent(name)}`;
const podsPath = (ns: string, name?: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods${name ? `/${encodeURIComponent(name)}` : ''}`;
/** how long a creation or deletion the informer has not shown yet is waited for (Kubernetes' ExpectationsTimeout) */
const expectationTtlMs = 5 * 60_000;

export interface DaemonSetControllerOptions {
  now?: () => number;
  workers?: number;
  /** an informer over every pod the process already runs (ownedPodView-shaped); by default its own */
  pods?: Informer<OwnedPod>;
}

export function startDaemonSetController(client: Client, log: Logger, opts: DaemonSetControllerOptions = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const events = eventRecorder(client, 'daemonset-controller', log, undefined, now);
  const sets = createInformer<DaemonSet>(client, '/apis/apps/v1/daemonsets', { log });
  const nodes = createInformer<Node>(client, '/api/v1/nodes', { log, transform: (n: Node) => ({ metadata: { name: n.metadata.name, labels: n.metadata.labels, resourceVersion: n.metadata.resourceVersion }, spec: { taints: n.spec?.taints } }) as Node });
  const pods = opts.pods ?? ownedPodInformer(client, log);
  const revisions = createInformer<Rev>(client, '/apis/apps/v1/controllerrevisions', { log });
  const podsIn = byNamespace(pods);
  const revisionsIn = byNamespace(revisions);
  const informers: Informer[] = [sets, nodes, pods, revisions];
  const ready = Promise.all(informers.map(i => i.synced()));
  // per set: nodes given a pod not yet seen, pods deleted not yet seen going
  const pendingCreates = new Map<string, Map<string, { until: number; known: Set<string> }>>();
  const pendingDeletes = new Map<string, Map<string, number>>();
  const failedBackoff = new Map<string, { at: number; delayMs: number }>();
  const pending = <V>(m: Map<string, Map<string, V>>, key: string) => { let x = m.get(key); if (!x) m.set(key, x = new Map()); return x; };

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 2, log });
  const enqueue = (ds: DaemonSet) => queue.add(objectKey(ds));
  const owner = (ds: DaemonSet) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: ds.metadata });
  const setOfPod = (p: OwnedPod): DaemonSet[] => {
    const ref = controllerRefOf(p);
    if (ref) {
      if (ref.kind !== 'DaemonSet') return [];
      const ds = sets.get(`${p.metadata.namespace}/${ref.name}`);
      return ds && ds.metadata.uid === ref.uid ? [ds] : [];
    }
    return sets.list().filter(ds => { try { return ds.metadata.namespace === p.metadata.namespace && claimOf(owner(ds), labelSelectorFromObject(ds.spec?.selector), p) === 'adopt'; } catch { return false; } });
  };
  // a pod the informer shows for the first time settles the creation expected on its node
  const seen = (p: OwnedPod, added: boolean) => {
    for (const ds of setOfPod(p)) {
      const node = targetNode(p);
      // only a pod the node did not hold when the creation was sent (not one delivered again)
      const expected = node && added ? pendingCreates.get(objectKey(ds))?.get(node) : undefined;
      if (expected && !expected.known.has(p.metadata.uid ?? '')) pendingCreates.get(objectKey(ds))!.delete(node!);
      if (p.metadata.deletionTimestamp) pendingDeletes.get(objectKey(ds))?.delete(p.metadata.uid ?? '');
      enqueue(ds);
    }
  };
  sets.on('add', enqueue).on('update', (_o, n) => enqueue(n)).on('delete', ds => { queue.forget(objectKey(ds)); pendingCreates.delete(objectKey(ds)); pendingDeletes.delete(objectKey(ds)); for (const k of failedBackoff.keys()) if (k.startsWith(`${objectKey(ds)}/`)) failedBackoff.delete(k); });
  pods.on('add', p => seen(p, true)).on('update', (_o, n) => seen(n, false)).on('delete', p => { for (const ds of setOfPod(p)) { pendingDeletes.get(objectKey(ds))?.delete(p.metadata.uid ?? ''); enqueue(ds); } });
  const allSets = () => sets.list().forEach(enqueue);
  nodes.on('add', allSets).on('update', (o, n) => { if (JSON.stringify([o.metadata.labels, o.spec?.taints]) !== JSON.stringify([n.metadata.labels, n.spec?.taints])) allSets(); }).on('delete', allSets);
  revisions.on('delete', r => { const ref = controllerRefOf(r); if (ref?.kind === 'DaemonSet') { const ds = sets.get(`${r.metadata.namespace}/${ref.name}`); if (ds) enqueue(ds); } });

  async function claimPods(ds: DaemonSet): Promise<OwnedPod[]> {
    const selector = labelSelectorFromObject(ds.spec?.selector);
    const out: OwnedPod[] = [];
    for (const p of podsIn(ds.metadata.namespace)) {
      const c = claimOf(owner(ds), selector, p);
      if (c === 'keep') out.push(p);
      else if (c === 'adopt') {
        try { out.push(await client.patch(podsPath(p.metadata.namespace, p.metadata.name), adoptPatch(owner(ds), p.metadata.uid), strategicMergePatch)); } catch (err) { if (!isNotFound(err)) throw err; }
      } else if (c === 'release') {
        await client.patch(podsPath(p.metadata.namespace, p.metadata.name), releasePatch(ds.metadata.uid, p.metadata.uid), strategicMergePatch).catch(err => { if (!isNotFound(err)) throw err; });
      }
    }
    return out;
  }

  /**
   * the set's pods as the informer holds them at this moment (plus those this round adopted, which
   * it may not show as ours yet). Read with no await between it and the writes planned from it:
   * a pod created a moment ago is then either here or still expected on its node, never neither
   */
  function ownedNow(ds: DaemonSet, adopted: OwnedPod[]): OwnedPod[] {
    const selector = labelSelectorFromObject(ds.spec?.selector);
    const out = podsIn(ds.metadata.namespace).filter(p => claimOf(owner(ds), selector, p) === 'keep');
    const have = new Set(out.map(p => p.metadata.uid));
    return [...out, ...adopted.filter(p => !have.has(p.metadata.uid))];
  }

  function podsByNode(key: string, owned: CoreV1Pod[]): Map<string, CoreV1Pod[]> {
    const t = now();
    const deleting = pendingDeletes.get(key);
    const out = new Map<string, CoreV1Pod[]>();
    for (const p of owned) {
      const node = targetNode(p);
      if (!node) continue;
      let l = out.get(node);
      if (!l) out.set(node, l = []);
      // a pod we deleted counts as terminating until the informer says so: its node waits for it to go
      const going = !p.metadata?.deletionTimestamp && (deleting?.get(p.metadata?.uid ?? '') ?? 0) > t;
      l.push(going ? { ...p, metadata: { ...p.metadata, deletionTimestamp: new Date(t).toISOString() } } : p);
    }
    return out;
  }

  async function syncNodes(ds: DaemonSet, key: string, toDelete: CoreV1Pod[], toCreate: string[], hash: string, onNodes: Map<string, CoreV1Pod[]>): Promise<void> {
    const t = now();
    const creating = pending(pendingCreates, key);
    const deleting = pending(pendingDeletes, key);
    const results = await Promise.allSettled([
      ...toCreate.filter(n => !((creating.get(n)?.until ?? 0) > t)).map(async node => {
        creating.set(node, { until: t + expectationTtlMs, known: new Set((onNodes.get(node) ?? []).map(p => p.metadata?.uid ?? '')) });
        try {
          const made = await client.create<CoreV1Pod>(podsPath(ds.metadata.namespace), daemonPod(ds, hash, node));
          events.record(owner(ds), 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata?.name}`);
        } catch (err) {
          creating.delete(node);
          events.record(owner(ds), 'Warning', 'FailedCreate', `Error creating: ${errText(err)}`);
          throw err;
        }
      }),
      ...toDelete.filter((p, i, all) => all.indexOf(p) === i).map(async pod => {
        deleting.set(pod.metadata!.uid!, t + expectationTtlMs);
        try {
          await client.delete(podsPath(ds.metadata.namespace, pod.metadata!.name!), { preconditions: { uid: pod.metadata!.uid } });
          events.record(owner(ds), 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata!.name}`);
        } catch (err) {
          if (isNotFound(err)) return;
          deleting.delete(pod.metadata!.uid!);
          events.record(owner(ds), 'Warning', 'FailedDelete', `Error deleting: ${errText(err)}`);
          throw err;
        }
      }),
    ]);
    const failed = results.find(r => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  async function writeStatus(ds: DaemonSet, status: AppsV1DaemonSetStatus): Promise<void> {
    let current = ds;
    for (let attempt = 0; ; attempt++) {
      if (!daemonStatusChanged(current.status, status)) return;
      const path = `${dsPath(ds.metadata.namespace, ds.metadata.name)}/status`;
      try { await client.update(path, { ...current, status }); return; } catch (err) {
        if (!isConflict(err) || attempt >= 3) throw err;
        current = await client.get(dsPath(ds.metadata.namespace, ds.metadata.name));
        if (current.metadata.uid !== ds.metadata.uid) return;
      }
    }
  }

  async function sync(key: string): Promise<SyncResult> {
    await ready;
    const ds = sets.get(key);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const claimed = await claimPods(ds);
    const revs = await ownedRevisions(client, owner(ds), labelSelectorFromObject(ds.spec?.selector), revisionsIn(ds.metadata.namespace));
    const { hash, current, old, collisionCount } = await daemonSetHistory(client, ds, revs);
    let owned = ownedNow(ds, claimed);
    const nodeList = nodes.list();
    const t = now();
    const manage = planManage(ds, nodeList, podsByNode(key, owned), hash, t);
    // a node whose daemon pods keep failing (a kubelet rejecting them) is retried with a growing delay
    let retryFailedAt: number | undefined;
    for (const f of manage.failed) {
      const b = failedBackoff.get(`${key}/${f.node}`);
      if (b && t - b.at < b.delayMs) {
        manage.podsToDelete = manage.podsToDelete.filter(p => p !== f.pod);
        retryFailedAt = Math.min(retryFailedAt ?? Infinity, b.at + b.delayMs);
        continue;
      }
      failedBackoff.set(`${key}/${f.node}`, { at: t, delayMs: b ? Math.min(b.delayMs * 2, 15 * 60_000) : 1000 });
      events.record(owner(ds), 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${f.pod.metadata!.namespace}/${f.pod.metadata!.name} on node ${f.node}, will try to kill it`);
    }
    let failure: unknown;
    try {
      const onNodes = podsByNode(key, owned);
      await syncNodes(ds, key, manage.podsToDelete, manage.nodesNeedingPods, hash, onNodes);
      // as Kubernetes' controller: the rolling update waits for a round with nothing left to make
      // or remove, and plans from the pods as they are after those writes
      const settled = !manage.nodesNeedingPods.length && !manage.podsToDelete.length;
      if (settled && (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
        owned = ownedNow(ds, claimed);
        const byNode = podsByNode(key, owned);
        const upd = planRollingUpdate(ds, nodeList, byNode, hash, now());
        await syncNodes(ds, key, upd.podsToDelete, upd.nodesNeedingPods, hash, byNode);
      }
    } catch (err) { failure = err; }
    // history: revisions no pod runs, beyond revisionHistoryLimit, oldest first
    const live = new Set(owned.map(p => p.metadata.labels?.[revisionHashLabel]).filter(Boolean));
    for (const r of revisionsToPrune(old.filter(r => r !== current), r => live.has(r.metadata.labels?.[revisionHashLabel] ?? r.metadata.name), ds.spec?.revisionHistoryLimit ?? 10)) await deleteRevision(client, r);
    const status = daemonStatus({ ...ds, status: { ...ds.status!, collisionCount } }, nodeList, podsByNode(key, owned), hash, t);
    await writeStatus(ds, status);
    if (failure) throw failure;
    const minReady = ds.spec?.minReadySeconds ?? 0;
    const available = minReady ? nextAvailabilityMs(owned, minReady, t) : undefined;
    const at = Math.min(available ?? Infinity, retryFailedAt ?? Infinity);
    if (at !== Infinity) return { requeueAfterMs: Math.max(0, at - t) };
  }

  for (const i of informers) if (i !== opts.pods) i.start();
  return {
    stop() {
      queue.shutdown();
      for (const i of informers) if (i !== opts.pods) i.stop();
    },
  };
}
