// The scheduler: pods without a node, meant for one of its scheduler names, are filtered
// against the nodes, scored, and bound through pods/binding. As kube-scheduler does, it stops
// filtering once it has found enough feasible nodes (`feasibleNodesToFind`), starting each pod
// where the last one stopped, so a large cluster is not weighed whole for every pod. A placed pod
// counts against its node at once ("assumed") so binds in flight cannot overcommit; the
// assumption ends when the pod is seen bound, or is dropped if the bind fails. Pods that fit nowhere get a
// FailedScheduling event and PodScheduled=False, and are tried again when nodes or pods change
// and at least every minute. Pods with volume claims go through VolumeBinding: their claims
// are checked before any node, each node is checked for their volumes, and the chosen node's
// volumes are bound (or provisioned) before the pod is.

import type { Logger } from '../../api/log.ts';
import { ApiError } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { failureMessage } from './failure-message.ts';
import { filterNode, type Failure } from './filters.ts';
import { podInformer } from '../pod-view.ts';
import { addPod, emptyUsage, nodeInfo, removePod, type NodeInfo, type NodeUsage } from './node-info.ts';
import { scoreNode } from './scores.ts';
import { planVolumes, podClaims, type VolumePlan } from './volume-binding.ts';
import { bindVolumes, hasVolumeWork, volumeState } from './volume-prebind.ts';
import { claimsOfPod } from '../volumes/claim-users.ts';
import { rfc3339 } from '../../api/time.ts';
import { KeyedBackoff } from '../../api/backoff.ts';
import type { CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';

type Pod = ServedInNamespace<CoreV1Pod>;


export interface SchedulerOptions {
  client: Client;
  log: Logger;
  /** the spec.schedulerName values this scheduler serves */
  schedulerNames?: string[];
  /** binds in flight at once */
  parallelBinds?: number;
  /** how long an unschedulable pod waits at most before it is tried again */
  retryUnschedulableMs?: number;
  /** a pod informer shared with other controllers (podInformer's view); by default its own */
  pods?: Informer;
  /** how long a pod waits for its volumes to be bound before it is tried again; default 10 minutes */
  bindVolumesTimeoutMs?: number;
}

export interface Scheduler { stop(): void }

const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export function startScheduler(o: SchedulerOptions): Scheduler {
  const names = new Set(o.schedulerNames ?? ['default-scheduler']);
  const parallel = o.parallelBinds ?? 32;
  const retryMs = o.retryUnschedulableMs ?? 60_000;
  const events = eventRecorder(o.client, 'default-scheduler', o.log);
  const nodes = createInformer(o.client, '/api/v1/nodes', { log: o.log });
  const pods = o.pods ?? podInformer(o.client, o.log);
  /** per node, what the pods placed on it (or assumed there) hold, kept up to date from the pod events */
  const usage = new Map<string, NodeUsage>();
  /** the nodes' names in the order they are visited; rebuilt when nodes come or go */
  let nodeOrder: string[] | undefined;
  /** where the next pod's search for feasible nodes begins */
  let nextStart = 0;
  const volumes = volumeState(o.client, o.log);

  /** pod key → node, for pods bound (or being bound) but not yet seen with spec.nodeName */
  const assumed = new Map<string, { node: string; pod: Pod }>();
  const active: string[] = [];
  const queued = new Set<string>();
  const unschedulable = new Set<string>();
  /** pods with claims seen before the volume informers had listed */
  const waitingForVolumes = new Set<string>();
  const errorBackoff = new KeyedBackoff({ initialMs: 1000, maxMs: 10_000 });
  let inFlight = 0;
  let stopped = false;
  let draining = false;

  const wanted = (p: Pod) => !p.spec?.nodeName && names.has(p.spec?.schedulerName ?? 'default-scheduler') && !p.metadata?.deletionTimestamp && !isTerminal(p) && !(p.spec?.schedulingGates?.length);

  function enqueue(key: string): void {
    if (queued.has(key) || assumed.has(key)) return;
    queued.add(key);
    active.push(key);
    drainSoon();
  }

  /** cluster changes may make room: everything waiting is tried again */
  function retryUnschedulable(): void {
    for (const k of unschedulable) enqueue(k);
    unschedulable.clear();
  }

  function drainSoon(): void {
    if (draining || stopped) return;
    draining = true;
    setImmediate(drain);
  }

  const counts = (p: Pod) => !!p.spec?.nodeName && !isTerminal(p);

  function count(p: Pod, placed: boolean, node = p.spec!.nodeName!): void {
    let u = usage.get(node);
    if (!u) usage.set(node, u = emptyUsage());
    if (placed) addPod(u, p); else removePod(u, p);
    if (u.pods === 0) usage.delete(node);
  }

  /** the pod is no longer assumed on a node: what it was counted for there is taken back */
  function unassume(key: string): void {
    const a = assumed.get(key);
    if (!a) return;
    assumed.delete(key);
    count(a.pod, false, a.node);
  }

  function drain(): void {
    draining = false;
    if (stopped || !nodes.hasSynced() || !pods.hasSynced()) return;
    while (active.length && inFlight < parallel) {
      const key = active.shift()!;
      queued.delete(key);
      const pod = pods.get(key);
      if (!pod || !wanted(pod) || assumed.has(key)) continue;
      // pods with claims wait until claims, volumes and classes are known; the others do not
      if (!volumes.synced() && claimsOfPod(pod).length) { waitingForVolumes.add(key); continue; }
      scheduleOne(pod, key);
    }
  }

  function scheduleOne(pod: Pod, key: string): void {
    const failures: Failure[][] = [];
    let best: NodeInfo | undefined;
    let bestScore = -1;
    let ties = 0;
    nodeOrder ??= nodes.list().map(n => n.metadata.name);
    const all = nodeOrder.length;
    const claims = claimsOfPod(pod).length ? podClaims(pod, volumes.world) : undefined;
    if (claims && 'error' in claims) return void markUnschedulable(pod, key, failureMessage(all, [], claims.error));
    const plans = new Map<string, VolumePlan>();
    const want = feasibleNodesToFind(all);
    let feasible = 0;
    let visited = 0;
    for (; visited < all && feasible < want; visited++) {
      const node = nodes.get(nodeOrder[(nextStart + visited) % all]!);
      if (!node) continue;
      // the live usage of the pods on it and assumed there, read (never changed) by the checks
      const info = nodeInfo(node, usage.get(node.metadata.name));
      let f = filterNode(pod, info);
      if (!f.length && claims) {
        const planned = planVolumes(claims, info.node, volumes.world);
        if ('failure' in planned) f = [planned.failure]; else plans.set(info.node.metadata!.name!, planned.plan);
      }
      if (f.length) { failures.push(f); continue; }
      feasible++;
      const s = scoreNode(pod, info);
      // equal scores: each candidate is kept with equal chance
      if (s > bestScore) { best = info; bestScore = s; ties = 1; } else if (s === bestScore && Math.random() * ++ties < 1) best = info;
    }
    if (all) nextStart = (nextStart + visited) % all;
    if (!best) return void markUnschedulable(pod, key, failureMessage(all, failures));
    const nodeName = best.node.metadata!.name!;
    count(pod, true, nodeName);
    assumed.set(key, { node: nodeName, pod });
    inFlight++;
    const plan = plans.get(nodeName);
    const promised = plan ? plan.bind.map(b => b.volume.metadata.name!) : [];
    for (const v of promised) volumes.assumed.add(v);
    void preBind(pod, nodeName, plan).then(ready => (ready ? bind(pod, nodeName) : false)).then(ok => {
      inFlight--;
      for (const v of promised) volumes.assumed.delete(v);
      if (!ok) unassume(key);
      drainSoon();
    });
  }

  /** the pod's volumes bound on the node before the pod is; false when that failed (tried again later) */
  async function preBind(pod: Pod, nodeName: string, plan: VolumePlan | undefined): Promise<boolean> {
    if (!hasVolumeWork(plan)) return true;
    try {
      await bindVolumes(o.client, volumes, plan, nodeName, { timeoutMs: o.bindVolumesTimeoutMs ?? 600_000 });
      return true;
    } catch (err) {
      const key = objectKey(pod);
      const message = `running PreBind plugin "VolumeBinding": ${err instanceof Error ? err.message : String(err)}`;
      o.log.warn('binding volumes failed', { pod: key, node: nodeName, err: message });
      events.record({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, 'Warning', 'FailedScheduling', message);
      setTimeout(() => enqueue(key), errorBackoff.next(key)).unref();
      return false;
    }
  }

  async function bind(pod: Pod, nodeName: string): Promise<boolean> {
    const m = pod.metadata;
    try {
      await o.client.create(`/api/v1/namespaces/${encodeURIComponent(m.namespace)}/pods/${encodeURIComponent(m.name)}/binding`, {
        apiVersion: 'v1', kind: 'Binding', metadata: { name: m.name, namespace: m.namespace, uid: m.uid }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
      });
      errorBackoff.forget(objectKey(pod));
      events.record({ apiVersion: 'v1', kind: 'Pod', metadata: m }, 'Normal', 'Scheduled', `Successfully assigned ${m.namespace}/${m.name} to ${nodeName}`);
      return true;
    } catch (err) {
      // already placed by someone else, being deleted, or gone: nothing left to do for it (any
      // other conflict is a race with a write to the pod, and the pod is tried again)
      if (err instanceof ApiError && (err.code === 404 || (err.code === 409 && /already assigned|being deleted/.test(err.message)))) return false;
      const key = objectKey(pod);
      const delay = errorBackoff.next(key);
      o.log.warn('binding failed', { pod: key, node: nodeName, err: String(err), retryInMs: delay });
      setTimeout(() => enqueue(key), delay).unref();
      return false;
    }
  }

  function markUnschedulable(pod: Pod, key: string, message: string): void {
    unschedulable.add(key);
    const m = pod.metadata;
    events.record({ apiVersion: 'v1', kind: 'Pod', metadata: m }, 'Warning', 'FailedScheduling', message);
    const existing = (pod.status?.conditions ?? []).find(c => c.type === 'PodScheduled');
    if (existing?.status === 'False' && existing.message === message) return;
    const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime: rfc3339(Date.now()) };
    const conditions = [...(pod.status?.conditions ?? []).filter(c => c.type !== 'PodScheduled'), condition];
    // only if the pod is still as seen: a bind that landed meanwhile must not be contradicted
    const patch = [{ op: 'test', path: '/metadata/resourceVersion', value: m.resourceVersion }, { op: 'add', path: '/status/conditions', value: conditions }];
    o.client.patch(`/api/v1/namespaces/${encodeURIComponent(m.namespace)}/pods/${encodeURIComponent(m.name)}/status`, patch, 'application/json-patch+json')
      .catch(err => o.log.debug('PodScheduled condition not written', { pod: key, err: String(err) }));
  }

  nodes
    .on('add', () => { nodeOrder = undefined; retryUnschedulable(); })
    .on('update', (a, b) => { if (JSON.stringify(a.spec) !== JSON.stringify(b.spec) || JSON.stringify(a.status?.allocatable) !== JSON.stringify(b.status?.allocatable) || readyOf(a) !== readyOf(b) || JSON.stringify(a.metadata.labels) !== JSON.stringify(b.metadata.labels)) retryUnschedulable(); })
    .on('delete', () => { nodeOrder = undefined; });
  pods
    .on('add', p => {
      if (counts(p)) count(p, true);
      if (wanted(p)) enqueue(objectKey(p));
    })
    .on('update', (a, p) => {
      const key = objectKey(p);
      if (p.spec?.nodeName) unassume(key);
      if (counts(a)) count(a, false);
      if (counts(p)) count(p, true);
      if (wanted(p) && !unschedulable.has(key)) enqueue(key);
      if (p.spec?.nodeName && isTerminal(p)) retryUnschedulable();
    })
    .on('delete', p => {
      if (counts(p)) count(p, false);
      const key = objectKey(p);
      unassume(key);
      unschedulable.delete(key);
      if (p.spec?.nodeName) retryUnschedulable();
    });
  // a claim bound, a volume made or a class added may let a waiting pod fit
  for (const i of [volumes.claims, volumes.volumes, volumes.classes] as Informer[]) i.on('add', () => retryUnschedulable()).on('update', () => retryUnschedulable());
  nodes.start();
  pods.start();
  volumes.start();
  void Promise.all([nodes.synced(), pods.synced()]).then(drainSoon);
  void Promise.all([volumes.claims.synced(), volumes.volumes.synced(), volumes.classes.synced()]).then(() => { for (const k of waitingForVolumes) enqueue(k); waitingForVolumes.clear(); });
  const periodic = setInterval(() => { retryUnschedulable(); drainSoon(); }, retryMs);
  periodic.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(periodic);
      nodes.stop();
      volumes.stop();
      if (!o.pods) pods.stop();
    },
  };
}

/**
 * How many feasible nodes are enough to choose from, as kube-scheduler's adaptive default
 * (percentageOfNodesToScore unset) decides: every node of a small cluster, else 50 % less a
 * point per 125 nodes (at least 5 %), and never fewer than 100.
 */
export function feasibleNodesToFind(allNodes: number): number {
  if (allNodes < 100) return allNodes;
  const percentage = Math.max(5, 50 - Math.trunc(allNodes / 125));
  return Math.max(100, Math.trunc((allNodes * percentage) / 100));
}

const readyOf = (n: CoreV1Node) => (n.status?.conditions ?? []).find(c => c.type === 'Ready')?.status;
