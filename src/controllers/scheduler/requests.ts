// What a pod asks of a node, as the scheduler counts it: per resource the larger of what its
// containers (and sidecars) need together and what its heaviest init step needs, plus the pod
// overhead. Scoring counts containers without requests as 100m CPU and 200Mi memory, so that
// spreading still sees them.

import { parseQuantity } from '../../api/quantity.ts';

type Obj = Record<string, any>;
export type Resources = Map<string, number>;

/** cpu in millicores, everything else in its base unit */
export function quantityOf(resource: string, q: unknown): number {
  const v = parseQuantity(String(q)) ?? 0;
  return resource === 'cpu' ? Math.round(v * 1000) : v;
}

function add(into: Resources, from: Obj | undefined): void {
  for (const [k, v] of Object.entries(from ?? {})) into.set(k, (into.get(k) ?? 0) + quantityOf(k, v));
}

function maxInto(into: Resources, from: Resources): void {
  for (const [k, v] of from) if (v > (into.get(k) ?? 0)) into.set(k, v);
}

const containerRequests = (c: Obj, nonZero: boolean): Resources => {
  const r: Resources = new Map();
  add(r, c.resources?.requests);
  if (nonZero) {
    if (!r.has('cpu')) r.set('cpu', 100);
    if (!r.has('memory')) r.set('memory', 200 * 1024 * 1024);
  }
  return r;
};

export function podRequests(pod: Obj, nonZero = false): Resources {
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

export function allocatable(node: Obj): Resources {
  const r: Resources = new Map();
  for (const [k, v] of Object.entries(node.status?.allocatable ?? {})) r.set(k, quantityOf(k, v));
  return r;
}
