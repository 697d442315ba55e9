// pods/<name>/eviction: a delete that respects PodDisruptionBudgets, as kube-apiserver's
// eviction REST does it. A pod whose deletion disrupts nothing more goes at once; otherwise its
// one budget must allow a disruption, which is taken (status.disruptionsAllowed decremented, the
// pod recorded in status.disruptedPods for the controller) with conflicts retried. The pod gets
// the DisruptionTarget condition, then is deleted with the Eviction's deleteOptions.

import { badRequest, conflict, invalid, StatusError, timeout } from '../../api/status.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import type { DeleteOptions } from '../registry.ts';
import type { Subresource, SubresourceCall, SubresourceResult } from './subresource.ts';
import {
  budgetBeingProcessed, budgetsGuarding, canIgnoreBudgets, disruptionTarget, pinsResourceVersion, takeDisruption,
  unhealthyMayGo, withCondition, type Budget, type EvictedPod,
} from './eviction-decision.ts';

/** kube-apiserver's EvictionsRetry: 20 tries, half a second apart, on conflicts */
const retries = 20;
const retryDelayMs = 500;

const success = (code: number): SubresourceResult => ({ type: 'object', code, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code } as never });

const isConflict = (err: unknown) => err instanceof StatusError && err.status.code === 409;
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms * (0.9 + Math.random() * 0.2)));

/**
 * The Eviction's deleteOptions, with the request's dryRun merged in as kube-apiserver merges
 * them: either one asking for a dry run makes it one (the only value either may hold is All).
 */
export function evictionDeleteOptions(eviction: KubeObject, queryDryRun: boolean): DeleteOptions {
  const raw = isObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const bodyDryRun = Array.isArray(raw.dryRun) && raw.dryRun.length > 0;
  const opts: DeleteOptions = { dryRun: queryDryRun || bodyDryRun };
  if (typeof raw.gracePeriodSeconds === 'number') opts.gracePeriodSeconds = raw.gracePeriodSeconds;
  if (typeof raw.propagationPolicy === 'string') opts.propagationPolicy = raw.propagationPolicy;
  if (typeof raw.orphanDependents === 'boolean') opts.orphanDependents = raw.orphanDependents;
  if (isObject(raw.preconditions)) opts.preconditions = raw.preconditions as DeleteOptions['preconditions'];
  return opts;
}

/** retries `fn` while it fails with a conflict, unless the caller pinned a resourceVersion */
async function onConflict<T>(retry: boolean, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!retry || !isConflict(err) || attempt >= retries) throw err;
      await sleep(retryDelayMs);
    }
  }
}

/** the DisruptionTarget condition first (through pods/status), then the delete */
async function markAndDelete(call: SubresourceCall, opts: DeleteOptions): Promise<void> {
  const pods = call.info;
  let options = opts;
  if (!opts.dryRun) {
    const pre = opts.preconditions;
    const kind = { group: '', resource: 'Pod' };
    const marked = await call.registry.modify(pods, call.namespace, call.name, pod => {
      if (pre?.uid && pre.uid !== pod.metadata.uid) {
        throw conflict(kind, call.name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${pod.metadata.uid}). The object might have been deleted and then recreated`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion) {
        throw conflict(kind, call.name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion}). The object might have been modified`);
      }
      const status = (pod.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
      pod.status = { ...status, conditions: withCondition(status.conditions, disruptionTarget(rfc3339(call.now()))) } as KubeObject['status'];
      return pod;
    }, { subresource: 'status', manager: call.manager });
    // our own write moved the resourceVersion the caller (or we) pinned the delete to
    if (pre?.resourceVersion) options = { ...opts, preconditions: { ...pre, resourceVersion: marked.metadata.resourceVersion } };
  }
  await call.registry.delete(pods, call.namespace, call.name, options);
}

async function evict(call: SubresourceCall, body: KubeObject): Promise<SubresourceResult> {
  if ((body.metadata?.name ?? '') !== call.name) throw badRequest('name in URL does not match name in Eviction object');
  if (body.metadata?.namespace && body.metadata.namespace !== call.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  // an eviction never takes the unsafe delete of corrupt objects (that is DELETE's alone)
  if (isObject(body.deleteOptions) && body.deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    throw invalid('Eviction', 'policy', call.name, [{ type: 'FieldValueInvalid', field: 'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential', value: true, detail: 'can not be set for pod eviction, try after removing the option' }]);
  }
  const original = evictionDeleteOptions(body, call.dryRun);
  const pinnedByCaller = !!original.preconditions?.resourceVersion;

  // pods whose deletion disrupts nothing more go without asking a budget
  let pod!: EvictedPod;
  const deletedAtOnce = await onConflict(!pinnedByCaller, async () => {
    pod = await call.registry.get(call.info, call.namespace, call.name) as EvictedPod;
    if (!canIgnoreBudgets(pod)) return false;
    const opts = pinsResourceVersion(pod) && !pinnedByCaller ? { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } } : original;
    await markAndDelete(call, opts);
    return true;
  });
  if (deletedAtOnce) return success(201);

  // no budgets can exist where policy/v1 is not served (--runtime-config)
  const budgetInfo = call.lookup('policy', 'v1', 'poddisruptionbudgets');
  const all = budgetInfo ? (await call.registry.list(budgetInfo, call.namespace)).items as Budget[] : [];
  const guarding = budgetsGuarding(pod, all);
  if (guarding.length > 1) {
    // answered, not raised: kube-apiserver writes this Status with the create's 201, and
    // clients see its Failure (and code 500) in the body
    return { type: 'object', code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } as never };
  }
  let pinToPod = false;
  const budget = guarding[0];
  if (budget) {
    if (unhealthyMayGo(pod, budget)) {
      pinToPod = true;
    } else {
      let current = budget;
      let refresh = false;
      try {
        await onConflict(true, async () => {
          if (refresh) current = await call.registry.get(budgetInfo!, call.namespace, budget.metadata.name!) as Budget;
          refresh = true;
          const status = takeDisruption(current, call.name, rfc3339(call.now()), !!original.dryRun);
          if (original.dryRun) return;
          await call.registry.update(budgetInfo!, call.namespace, current.metadata.name!, { ...current, status } as KubeObject, { subresource: 'status', manager: call.manager });
        });
      } catch (err) {
        if (isConflict(err)) throw timeout(`Timeout: couldn't update PodDisruptionBudget "${budget.metadata.name}" due to conflicts`, 10);
        throw err;
      }
    }
  }
  // an unready pod let go is deleted only if it has not turned ready since it was read
  const opts = pinToPod ? { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } } : original;
  try {
    await markAndDelete(call, opts);
  } catch (err) {
    if (isConflict(err) && pinToPod && !pinnedByCaller) throw budgetBeingProcessed(budget!.metadata.name ?? '');
    throw err;
  }
  return success(201);
}

export const evictionSubresource: Subresource = {
  name: 'eviction',
  verbs: ['create'],
  connect: false,
  kind: () => ({ group: 'policy', version: 'v1', kind: 'Eviction', definition: 'io.k8s.api.policy.v1.Eviction' }),
  create: evict,
};
