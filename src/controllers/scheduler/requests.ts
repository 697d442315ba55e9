// What a pod asks of a node, as the scheduler counts it: per resource the larger of what its
// containers (and sidecars) need together and what its heaviest init step needs, plus the pod
// overhead. Scoring counts containers without requests as 100m CPU and 200Mi memory, so that
// spreading still sees them.

import { parseQuantity } from '../../api/quantity.ts';
import type { CoreV1Container, CoreV1Node, CoreV1Pod, Quantity } from '../../schema/generated/types.ts';

export type Resources = Map<string, number>;

/** cpu in millicores, everything else in its base unit */
export function quantityOf(resource: string, q: Quantity): number {
  const v = parseQuantity(String(q)) ?? 0;
  return resource === 'cpu' ? Math.round(v * 1000) : v;
}

function add(into: Resources, from: Record<string, Quantity> | undefined): void {
  for (const [k, v] of Object.entries(from ?? {})) into.set(k, (into.get(k) ?? 0) + quantityOf(k, v));
}

function maxInto(into: Resources, from: Resources): void {
  for (const [k, v] of from) if (v > (into.get(k) ?? 0)) into.set(k, v);
}

const containerRequests = (c: CoreV1Container, nonZero: boolean): Resources => {
  const r: Resources = new Map();
  add(r, c.resources?.requests);
  if (nonZero) {
    if (!r.has('cpu')) r.set('cpu', 100);
    if (!r.has('memory')) r.set('memory', 200 * 1024 * 1024);
  }
  return r;
};

// A pod object from an informer is never changed in place, and the scheduler asks for its
// requests once per node it weighs: computed once per object (callers must not change the maps).
const requestsOf = new WeakMap<CoreV1Pod, Resources>();
const nonZeroRequestsOf = new WeakMap<CoreV1Pod, Resources>();

export function podRequests(pod: CoreV1Pod, nonZero = false): Resources {
  const memo = nonZero ? nonZeroRequestsOf : requestsOf;
  let r = memo.get(pod);
  if (!r) memo.set(pod, r = computeRequests(pod, nonZero));
  return r;
}

function computeRequests(pod: CoreV1Pod, nonZero: boolean): Resources {
  const total: Resources = new Map();
  for (const c of pod.spec?.containers ?? []) for (const [k, v] of containerRequests(c, nonZero)) total.set(k, (total.get(k) ?? 0) + v);
  const sidecars: Resources = new Map();
  const initPeak: Resources = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      for (const [k, v] of r) sidecars.set(k, (sidecars.get(k) ?? 0) + v);
      maxInto(initPeak, sidecars);
    } else {
      const step = new Map(sidecars);
      for (const [k, v] of r) step.set(k, (step.get(k) ?? 0) + v);
      maxInto(initPeak, step);
    }
  }
  for (const [k, v] of sidecars) total.set(k, (total.get(k) ?? 0) + v);
  maxInto(total, initPeak);
  add(total, pod.spec?.overhead);
  return total;
}

const allocatableOf = new WeakMap<CoreV1Node, Resources>();

/** a node's allocatable resources, parsed once per node object (callers must not change the map) */
export function allocatable(node: CoreV1Node): Resources {
  let r = allocatableOf.get(node);
  if (r) return r;
  r = new Map();
  for (const [k, v] of Object.entries(node.status?.allocatable ?? {})) r.set(k, quantityOf(k, v));
  allocatableOf.set(node, r);
  return r;
}
