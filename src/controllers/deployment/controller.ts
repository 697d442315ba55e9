// The deployment controller loop: a Deployment's ReplicaSets claimed by selector, the new one
// created or found for its template, then resized as its strategy says (RollingUpdate within
// maxSurge/maxUnavailable, Recreate: old ones to zero and gone first), paused Deployments only
// resized, old revisions beyond revisionHistoryLimit deleted, and the status with its
// conditions written. The decisions are in the neighbouring modules; this file sends writes.

import type { Logger } from '../../api/log.ts';
import { deepClone } from '../../api/object.ts';
import type { LabelSelector } from '../../api/selectors/label.ts';
import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { AppsV1DeploymentStatus } from '../../schema/generated/types.ts';
import { isNamespaceTerminating } from '../namespace-terminating.ts';
import { withoutFieldHistory } from '../without-field-history.ts';
import { adoptPatch, claimOf, controllerRefOf, isControlledBy, releasePatch, strategicMergePatch } from '../owner-refs.ts';
import { maxRevision, replicasAnnotationsNeedUpdate, revisionAnnotation, setNewReplicaSetAnnotations, setReplicasAnnotations } from './annotations.ts';
import { calculateStatus, deploymentComplete, getCondition, hasProgressDeadline, newCondition, pausedCondition, reasons, rolloutStatus, setCondition, stuckRecheckMs } from './deployment-status.ts';
import { newReplicaSetFor } from './new-replica-set.ts';
import { desiredReplicas, maxSurge, specReplicas, sumStatus } from './rollout-math.ts';
import { findNewReplicaSet, findOldReplicaSets, isActive, isScalingEvent, planHistoryCleanup, planNewReplicaSet, planOldReplicaSets, planResize, type ScaleStep } from './scaling-plan.ts';
import { equalIgnoreHash } from './template-hash.ts';
import type { DeploymentLike, ReplicaSetLike } from './types.ts';

export interface DeploymentControllerOptions {
  workers?: number;
  now?: () => number;
}

const enc = encodeURIComponent;
const deploymentPath = (ns: string, name: string) => `/apis/apps/v1/namespaces/${enc(ns)}/deployments/${enc(name)}`;
const rsPath = (ns: string, name: string) => `/apis/apps/v1/namespaces/${enc(ns)}/replicasets/${enc(name)}`;
const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** zero and absent read alike, as Go's omitempty writes them */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(normalized) : undefined;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) { const x = normalized((v as Record<string, unknown>)[k]); if (x !== undefined) out[k] = x; }
    return Object.keys(out).length ? out : undefined;
  }
  return v === 0 || v === '' || v === null ? undefined : v;
}
const sameStatus = (a: AppsV1DeploymentStatus | undefined, b: AppsV1DeploymentStatus) => JSON.stringify(normalized(a ?? {})) === JSON.stringify(normalized(b));

export function startDeploymentController(client: Client, log: Logger, opts: DeploymentControllerOptions = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const events = eventRecorder(client, 'deployment-controller', log, undefined, now);
  const deployments = createInformer<DeploymentLike>(client, '/apis/apps/v1/deployments', { log, transform: withoutFieldHistory });
  const replicaSets = createInformer<ReplicaSetLike>(client, '/apis/apps/v1/replicasets', { log, transform: withoutFieldHistory });
  const ready = Promise.all([deployments.synced(), replicaSets.synced()]);
  const target = (d: DeploymentLike) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: d.metadata });
  const owner = (d: DeploymentLike) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: d.metadata });

  function selectorOf(d: DeploymentLike): LabelSelector | undefined {
    try { return labelSelectorFromObject(d.spec?.selector); } catch { return undefined; }
  }

  /** one sync's view: the Deployment as last written, and its ReplicaSets as last written */
  interface Ctx { d: DeploymentLike }

  async function writeStatus(ctx: Ctx, status: AppsV1DeploymentStatus): Promise<void> {
    ctx.d = await client.update<DeploymentLike>(`${deploymentPath(ctx.d.metadata.namespace, ctx.d.metadata.name)}/status`, { ...ctx.d, apiVersion: 'apps/v1', kind: 'Deployment', status });
  }

  /** the Deployment's revision annotation follows its new ReplicaSet's (a metadata write, not status) */
  async function syncRevision(ctx: Ctx, revision: string | undefined): Promise<void> {
    if (revision === undefined || ctx.d.metadata.annotations?.[revisionAnnotation] === revision) return;
    const updated = await client.patch<DeploymentLike>(deploymentPath(ctx.d.metadata.namespace, ctx.d.metadata.name), { metadata: { annotations: { [revisionAnnotation]: revision } } });
    ctx.d = { ...ctx.d, metadata: updated.metadata };
  }

  async function putReplicaSet(rs: ReplicaSetLike, change: (rs: ReplicaSetLike) => void): Promise<ReplicaSetLike> {
    const copy = deepClone(rs);
    change(copy);
    try {
      return await client.update<ReplicaSetLike>(rsPath(rs.metadata.namespace, rs.metadata.name), copy);
    } catch (err) {
      if (!isConflict(err)) throw err;
      // the ReplicaSet controller writes status all the time: retry once on a fresh copy whose
      // spec is what the decision was made on
      const fresh = await client.get<ReplicaSetLike>(rsPath(rs.metadata.namespace, rs.metadata.name));
      if (specReplicas(fresh) !== specReplicas(rs) || !equalIgnoreHash(fresh.spec?.template, rs.spec?.template)) throw err;
      change(fresh);
      return client.update<ReplicaSetLike>(rsPath(rs.metadata.namespace, rs.metadata.name), fresh);
    }
  }

  /** Kubernetes' scaleReplicaSet: size and replica annotations; an event when the size moved */
  async function scale(ctx: Ctx, rs: ReplicaSetLike, to: number, direction?: 'up' | 'down'): Promise<ReplicaSetLike> {
    const from = specReplicas(rs);
    if (from === to && !replicasAnnotationsNeedUpdate(rs, ctx.d)) return rs;
    const d = ctx.d;
    const updated = await putReplicaSet(rs, c => {
      c.spec = { ...c.spec!, replicas: to };
      setReplicasAnnotations(c, desiredReplicas(d), desiredReplicas(d) + maxSurge(d));
    });
    if (from !== to) events.record(target(d), 'Normal', 'ScalingReplicaSet', `Scaled ${direction ?? (from < to ? 'up' : 'down')} replica set ${rs.metadata.name} from ${from} to ${to}`);
    return updated;
  }

  async function runSteps(ctx: Ctx, steps: ScaleStep[]): Promise<boolean> {
    let moved = false;
    for (const s of steps) {
      if (specReplicas(s.rs) !== s.to) moved = true;
      await scale(ctx, s.rs, s.to, s.direction);
    }
    return moved;
  }

  async function claimReplicaSets(d: DeploymentLike, selector: LabelSelector): Promise<ReplicaSetLike[]> {
    const claimed: ReplicaSetLike[] = [];
    let canAdopt: boolean | undefined;
    for (const rs of replicaSets.list().filter(r => r.metadata.namespace === d.metadata.namespace)) {
      const claim = claimOf(owner(d), selector, rs);
      if (claim === 'keep') { claimed.push(rs); continue; }
      if (claim === 'ignore') continue;
      try {
        if (claim === 'adopt') {
          // the cached Deployment may be stale: adopt only for one that is still there, not going
          if (canAdopt === undefined) {
            const fresh = await client.get<DeploymentLike>(deploymentPath(d.metadata.namespace, d.metadata.name)).catch(err => { if (isNotFound(err)) return undefined; throw err; });
            canAdopt = !!fresh && fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
          }
          if (!canAdopt) continue;
          claimed.push(await client.patch<ReplicaSetLike>(rsPath(rs.metadata.namespace, rs.metadata.name), adoptPatch(owner(d), rs.metadata.uid), strategicMergePatch));
        } else {
          await client.patch(rsPath(rs.metadata.namespace, rs.metadata.name), releasePatch(d.metadata.uid, rs.metadata.uid), strategicMergePatch);
        }
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
    if (canAdopt === false) throw new Error(`Deployment ${objectKey(d)} is gone or being deleted; not adopting its ReplicaSets`);
    return claimed;
  }

  /**
   * Kubernetes' getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked and
   * missing) with its revision and annotations brought up to date, and the old ones.
   */
  async function allReplicaSets(ctx: Ctx, rsList: ReplicaSetLike[], create: boolean): Promise<{ newRS?: ReplicaSetLike; oldRSs: ReplicaSetLike[] }> {
    const d = ctx.d;
    const oldRSs = findOldReplicaSets(d, rsList);
    const existing = findNewReplicaSet(d, rsList);
    const revision = maxRevision(oldRSs) + 1;
    if (existing) {
      const copy = deepClone(existing);
      const annotated = setNewReplicaSetAnnotations(d, copy, revision, true);
      if (annotated || (copy.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0)) {
        const updated = await putReplicaSet(existing, c => { setNewReplicaSetAnnotations(d, c, revision, true); c.spec = { ...c.spec!, minReadySeconds: d.spec?.minReadySeconds }; });
        return { newRS: updated, oldRSs };
      }
      await syncRevision(ctx, copy.metadata.annotations?.[revisionAnnotation]);
      if (hasProgressDeadline(ctx.d) && !getCondition(ctx.d.status, 'Progressing')) {
        const status = deepClone(ctx.d.status ?? {});
        setCondition(status, newCondition('Progressing', 'True', reasons.foundNewRS, `Found new replica set "${existing.metadata.name}"`, now()));
        await writeStatus(ctx, status);
      }
      return { newRS: existing, oldRSs };
    }
    if (!create) return { oldRSs };

    const body = newReplicaSetFor(d, oldRSs, revision);
    let created: ReplicaSetLike;
    let alreadyExisted = false;
    try {
      created = await client.create<ReplicaSetLike>(`/apis/apps/v1/namespaces/${enc(d.metadata.namespace)}/replicasets`, body);
    } catch (err) {
      if (isAlreadyExists(err)) {
        const found = await client.get<ReplicaSetLike>(rsPath(d.metadata.namespace, body.metadata.name));
        if (isControlledBy(found, d.metadata.uid) && equalIgnoreHash(d.spec?.template, found.spec?.template)) {
          created = found;
          alreadyExisted = true;
        } else {
          // a hash collision: another template made this name; the next hash takes the count
          const status = deepClone(d.status ?? {});
          status.collisionCount = (status.collisionCount ?? 0) + 1;
          await writeStatus(ctx, status).catch(() => undefined);
          throw err;
        }
      } else if (isNamespaceTerminating(err)) {
        throw err;
      } else {
        const msg = `Failed to create new replica set "${body.metadata.name}": ${errText(err)}`;
        if (hasProgressDeadline(d)) {
          const status = deepClone(d.status ?? {});
          setCondition(status, newCondition('Progressing', 'False', reasons.failedRSCreate, msg, now()));
          await writeStatus(ctx, status).catch(() => undefined);
        }
        events.record(target(d), 'Warning', reasons.failedRSCreate, msg);
        throw err;
      }
    }
    const replicas = specReplicas(body);
    if (!alreadyExisted && replicas > 0) events.record(target(d), 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${replicas}`);
    await syncRevision(ctx, String(revision));
    if (!alreadyExisted && hasProgressDeadline(ctx.d)) {
      const status = deepClone(ctx.d.status ?? {});
      setCondition(status, newCondition('Progressing', 'True', reasons.newReplicaSet, `Created new replica set "${created.metadata.name}"`, now()));
      await writeStatus(ctx, status);
    }
    return { newRS: created, oldRSs };
  }

  async function syncRolloutStatus(ctx: Ctx, all: ReplicaSetLike[], newRS: ReplicaSetLike | undefined): Promise<SyncResult> {
    const status = rolloutStatus(ctx.d, all, newRS, now());
    if (!sameStatus(ctx.d.status, status)) await writeStatus(ctx, status);
    const after = stuckRecheckMs(ctx.d, status, now());
    return after !== undefined ? { requeueAfterMs: after } : undefined;
  }

  async function syncDeploymentStatus(ctx: Ctx, all: ReplicaSetLike[], newRS: ReplicaSetLike | undefined): Promise<void> {
    const status = calculateStatus(ctx.d, all, newRS, now());
    if (!sameStatus(ctx.d.status, status)) await writeStatus(ctx, status);
  }

  async function cleanup(ctx: Ctx, oldRSs: ReplicaSetLike[]): Promise<void> {
    for (const rs of planHistoryCleanup(ctx.d, oldRSs)) {
      try { await client.delete(rsPath(rs.metadata.namespace, rs.metadata.name)); } catch (err) { if (!isNotFound(err)) throw err; }
    }
  }

  /** a resize, or any sync of a paused Deployment: sizes only, no rollout */
  async function syncScale(ctx: Ctx, rsList: ReplicaSetLike[]): Promise<SyncResult> {
    const { newRS, oldRSs } = await allReplicaSets(ctx, rsList, false);
    await runSteps(ctx, planResize(ctx.d, newRS, oldRSs));
    if (ctx.d.spec?.paused) await cleanup(ctx, oldRSs);
    await syncDeploymentStatus(ctx, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  async function rolloutRolling(ctx: Ctx, rsList: ReplicaSetLike[]): Promise<SyncResult> {
    const { newRS, oldRSs } = await allReplicaSets(ctx, rsList, true);
    const all = [...oldRSs, newRS!];
    const next = planNewReplicaSet(ctx.d, all, newRS!);
    if (next !== undefined) {
      await scale(ctx, newRS!, next);
      return syncRolloutStatus(ctx, all, newRS);
    }
    if (await runSteps(ctx, planOldReplicaSets(ctx.d, all, oldRSs.filter(isActive), newRS!))) return syncRolloutStatus(ctx, all, newRS);
    if (deploymentComplete(ctx.d, ctx.d.status ?? {})) await cleanup(ctx, oldRSs);
    return syncRolloutStatus(ctx, all, newRS);
  }

  async function rolloutRecreate(ctx: Ctx, rsList: ReplicaSetLike[]): Promise<SyncResult> {
    let { newRS, oldRSs } = await allReplicaSets(ctx, rsList, false);
    const all = () => [...oldRSs, ...(newRS ? [newRS] : [])];
    if (await runSteps(ctx, oldRSs.filter(isActive).map(rs => ({ rs, to: 0 })))) return syncRolloutStatus(ctx, all(), newRS);
    // old pods still running (or still terminating) hold the new ones back
    const oldRunning = sumStatus(oldRSs, 'replicas') > 0 || oldRSs.some(rs => (rs.status?.terminatingReplicas ?? 0) > 0);
    if (oldRunning) return syncRolloutStatus(ctx, all(), newRS);
    if (!newRS) ({ newRS, oldRSs } = await allReplicaSets(ctx, rsList, true));
    if (specReplicas(newRS) !== desiredReplicas(ctx.d)) await scale(ctx, newRS!, desiredReplicas(ctx.d));
    if (deploymentComplete(ctx.d, ctx.d.status ?? {})) await cleanup(ctx, oldRSs);
    return syncRolloutStatus(ctx, all(), newRS);
  }

  async function sync(key: string): Promise<SyncResult> {
    await ready;
    const cached = deployments.get(key);
    if (!cached) return;
    const ctx: Ctx = { d: deepClone(cached) };
    const d = ctx.d;
    const sel = d.spec?.selector;
    if (!sel || (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length)) {
      events.record(target(d), 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) await writeStatus(ctx, { ...d.status, observedGeneration: d.metadata.generation });
      return;
    }
    const selector = selectorOf(d);
    if (!selector) return;
    const rsList = await claimReplicaSets(d, selector);
    if (d.metadata.deletionTimestamp) {
      const { newRS, oldRSs } = await allReplicaSets(ctx, rsList, false);
      await syncDeploymentStatus(ctx, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
      return;
    }
    const paused = pausedCondition(d, now());
    if (paused) {
      const status = deepClone(d.status ?? {});
      setCondition(status, paused);
      await writeStatus(ctx, status);
    }
    if (ctx.d.spec?.paused) return syncScale(ctx, rsList);
    const { newRS, oldRSs } = { newRS: findNewReplicaSet(ctx.d, rsList), oldRSs: findOldReplicaSets(ctx.d, rsList) };
    if (isScalingEvent(ctx.d, newRS, oldRSs)) return syncScale(ctx, rsList);
    return ctx.d.spec?.strategy?.type === 'Recreate' ? rolloutRecreate(ctx, rsList) : rolloutRolling(ctx, rsList);
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 100, maxDelayMs: 60_000, log });

  function deploymentByRef(rs: ReplicaSetLike): DeploymentLike | undefined {
    const ref = controllerRefOf(rs);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = deployments.get(`${rs.metadata.namespace}/${ref.name}`);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  function enqueueMatching(rs: ReplicaSetLike): void {
    for (const d of deployments.list()) {
      if (d.metadata.namespace !== rs.metadata.namespace) continue;
      const sel = selectorOf(d);
      if (sel && matchesLabels(sel, rs.metadata.labels)) queue.add(objectKey(d));
    }
  }

  function rsChanged(rs: ReplicaSetLike, old?: ReplicaSetLike): void {
    if (old) {
      const oldRef = controllerRefOf(old), curRef = controllerRefOf(rs);
      if (oldRef && oldRef.uid !== curRef?.uid) { const d = deploymentByRef(old); if (d) queue.add(objectKey(d)); }
    }
    if (controllerRefOf(rs)) { const d = deploymentByRef(rs); if (d) queue.add(objectKey(d)); return; }
    enqueueMatching(rs);
  }

  deployments
    .on('add', d => queue.add(objectKey(d)))
    .on('update', (_o, d) => queue.add(objectKey(d)))
    .on('delete', d => queue.add(objectKey(d)));
  replicaSets
    .on('add', rs => rsChanged(rs))
    .on('update', (old, rs) => { if (old.metadata.resourceVersion !== rs.metadata.resourceVersion) rsChanged(rs, old); })
    .on('delete', rs => { const d = deploymentByRef(rs); if (d) queue.add(objectKey(d)); });
  deployments.start();
  replicaSets.start();
  return {
    stop() {
      deployments.stop();
      replicaSets.stop();
      queue.shutdown();
    },
  };
}
