// The ResourceQuota admission decision for one request against a namespace's quotas, worded as
// kube-apiserver words it. Quotas are read through their status (hard as the controller last
// copied it from spec, used as last counted or charged); a quota that limits what the object
// costs but has no usage figure yet refuses it until the controller has counted. The new usage
// figures are returned for the caller to write, so that concurrent requests cannot both pass.

import type { Evaluator, Operation } from './evaluators.ts';
import { add, exceeding, mask, negativeNames, prettyPrint, prettyPrintNames, removeZeros, subtractNonNegative, type ResourceList } from './resource-list.ts';
import { scopeRequirements, type QuotaSpecScopes } from './scopes.ts';

export interface Quota {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
  spec?: QuotaSpecScopes & { hard?: ResourceList };
  status?: { hard?: ResourceList; used?: ResourceList };
}

export interface QuotaRequest {
  evaluator: Evaluator;
  operation: Operation;
  object: any;
  oldObject?: any;
  now: number;
}

export type QuotaDecision =
  | { allowed: true; charges: Array<{ quota: Quota; used: ResourceList }> }
  | { allowed: false; message: string };

/** whether the quota counts this object: it limits something the object costs, and every scope holds */
export function quotaMatches(q: Quota, evaluator: Evaluator, obj: any): boolean {
  const hard = Object.keys(q.status?.hard ?? {});
  if (!evaluator.matchingResources(hard).length) return false;
  return scopeRequirements(q.spec).every(r => evaluator.matchesScope(r, obj));
}

const refuse = (message: string): QuotaDecision => ({ allowed: false, message });

export function checkQuotas(quotas: Quota[], req: QuotaRequest): QuotaDecision {
  const { evaluator } = req;
  const interesting: Quota[] = [];
  for (const q of quotas) {
    if (!quotaMatches(q, evaluator, req.object)) continue;
    const hard = q.status?.hard ?? {};
    const restricted = evaluator.matchingResources(Object.keys(hard));
    const why = evaluator.constraints(restricted, req.object);
    if (why) return refuse(`failed quota: ${q.metadata.name}: ${why}`);
    if (restricted.some(r => !(r in (q.status?.used ?? {})))) {
      return refuse(`status unknown for quota: ${q.metadata.name}, resources: ${prettyPrintNames(restricted)}`);
    }
    interesting.push(q);
  }
  if (!interesting.length) return { allowed: true, charges: [] };

  let delta = evaluator.usage(req.object, req.now);
  const negative = negativeNames(delta);
  if (negative.length) return refuse(`quota usage is negative for resource(s): ${prettyPrintNames(negative)}`);
  // an update is charged what it adds; an update that creates (no stored version) is charged in full
  if (req.operation === 'UPDATE' && req.oldObject?.metadata?.resourceVersion) {
    delta = subtractNonNegative(delta, evaluator.usage(req.oldObject, req.now));
  }
  delta = removeZeros(delta);
  if (!Object.keys(delta).length) return { allowed: true, charges: [] };

  const charges: Array<{ quota: Quota; used: ResourceList }> = [];
  for (const q of interesting) {
    const hard = q.status?.hard ?? {};
    const used = q.status?.used ?? {};
    const requested = mask(delta, Object.keys(hard));
    const newUsed = add(used, requested);
    const over = exceeding(mask(newUsed, Object.keys(requested)), hard);
    if (over.length) {
      return refuse(`exceeded quota: ${q.metadata.name}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
    }
    charges.push({ quota: q, used: newUsed });
  }
  return { allowed: true, charges };
}
