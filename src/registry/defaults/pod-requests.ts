// A container of a Pod that states limits but not requests gets requests equal to its limits,
// as Kubernetes defaults a Pod when it is decoded (never a pod template): quota, LimitRanger and
// the scheduler then see the requests the pod will have.

import { isObject } from '../../api/object.ts';

export function defaultRequestsFromLimits(spec: unknown): void {
  if (!isObject(spec)) return;
  for (const list of ['containers', 'initContainers']) {
    const cs = spec[list];
    if (!Array.isArray(cs)) continue;
    for (const c of cs) {
      if (!isObject(c) || !isObject(c.resources) || !isObject(c.resources.limits)) continue;
      const requests = isObject(c.resources.requests) ? c.resources.requests : (c.resources.requests = {});
      for (const [k, v] of Object.entries(c.resources.limits)) if (!(k in requests)) requests[k] = v;
    }
  }
}
