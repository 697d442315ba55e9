// LimitRange's min, max and maxLimitRequestRatio checks of a pod's containers, of the pod as a
// whole, and of a claim's storage request, in the LimitRanger admission plugin's words
// ("maximum cpu usage per Container is 1, but limit is 2"). Several failures are listed as
// Kubernetes aggregates errors: one alone, else "[a, b]" without repeats.

import { canonicalQuantity, compareQuantities, parseQuantity } from '../quantity.ts';
import { podLimits, podRequests, type ResourcePod } from '../pod-resources.ts';
import type { ResourceList } from '../quota/resource-list.ts';
import type { LimitRange } from './defaults.ts';

const show = (q: string) => canonicalQuantity(q) ?? q;
const more = (a: string, b: string) => (compareQuantities(a, b) ?? 0) > 0;

function minConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const e = show(enforced);
  if (!(name in req)) return `minimum ${name} usage per ${type} is ${e}.  No request is specified`;
  if (more(enforced, req[name]!)) return `minimum ${name} usage per ${type} is ${e}, but request is ${show(req[name]!)}`;
  if (name in lim && more(enforced, lim[name]!)) return `minimum ${name} usage per ${type} is ${e}, but limit is ${show(lim[name]!)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const e = show(enforced);
  if (!(name in lim)) return `maximum ${name} usage per ${type} is ${e}.  No limit is specified`;
  if (more(lim[name]!, enforced)) return `maximum ${name} usage per ${type} is ${e}, but limit is ${show(lim[name]!)}`;
  if (name in req && more(req[name]!, enforced)) return `maximum ${name} usage per ${type} is ${e}, but request is ${show(req[name]!)}`;
  return undefined;
}

/** a claim has requests only: its max is held against the request */
function maxRequestConstraint(type: string, name: string, enforced: string, req: ResourceList): string | undefined {
  const e = show(enforced);
  if (!(name in req)) return `maximum ${name} usage per ${type} is ${e}.  No request is specified`;
  if (more(req[name]!, enforced)) return `maximum ${name} usage per ${type} is ${e}, but request is ${show(req[name]!)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const e = show(enforced);
  const r = name in req ? parseQuantity(req[name]) ?? 0 : 0;
  const l = name in lim ? parseQuantity(lim[name]) ?? 0 : 0;
  if (r === 0) return `${name} max limit to request ratio per ${type} is ${e}, but no request is specified or request is 0`;
  if (l === 0) return `${name} max limit to request ratio per ${type} is ${e}, but no limit is specified or limit is 0`;
  const ratio = l / r;
  if (ratio > (parseQuantity(enforced) ?? Infinity)) return `${name} max limit to request ratio per ${type} is ${e}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

function checkAll(type: string, item: { min?: ResourceList; max?: ResourceList; maxLimitRequestRatio?: ResourceList }, req: ResourceList, lim: ResourceList, out: string[]): void {
  for (const [k, v] of Object.entries(item.min ?? {})) push(out, minConstraint(type, k, v, req, lim));
  for (const [k, v] of Object.entries(item.max ?? {})) push(out, maxConstraint(type, k, v, req, lim));
  for (const [k, v] of Object.entries(item.maxLimitRequestRatio ?? {})) push(out, ratioConstraint(type, k, v, req, lim));
}

const push = (out: string[], e: string | undefined) => { if (e) out.push(e); };

/** several errors as one message, as Kubernetes' error aggregates print */
export function aggregate(errors: string[]): string | undefined {
  const unique = [...new Set(errors)];
  if (!unique.length) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

interface Container { resources?: { requests?: ResourceList; limits?: ResourceList } }

/** why the pod breaks the LimitRange's Container and Pod items, or undefined */
export function validatePod(lr: LimitRange, pod: ResourcePod & { spec?: { containers?: Container[]; initContainers?: Container[] } }): string | undefined {
  const errors: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        checkAll('Container', item, c.resources?.requests ?? {}, c.resources?.limits ?? {}, errors);
      }
    }
    if (item.type === 'Pod') checkAll('Pod', item, podRequests(pod), podLimits(pod), errors);
  }
  return aggregate(errors);
}

/** why the claim breaks the LimitRange's PersistentVolumeClaim items, or undefined */
export function validateClaim(lr: LimitRange, pvc: { spec?: { resources?: { requests?: ResourceList } } }): string | undefined {
  const errors: string[] = [];
  const req = pvc.spec?.resources?.requests ?? {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of Object.entries(item.min ?? {})) push(errors, minConstraint('PersistentVolumeClaim', k, v, req, {}));
    for (const [k, v] of Object.entries(item.max ?? {})) push(errors, maxRequestConstraint('PersistentVolumeClaim', k, v, req));
  }
  return aggregate(errors);
}
