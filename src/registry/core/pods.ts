// Pods: defaults, Pending until a node agent reports, and graceful deletion once bound to a node.

import { strategyWith } from '../strategy.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { defaultPodSpec } from '../defaults/pod-spec.ts';

function spec(obj: KubeObject): Record<string, unknown> {
  return isObject(obj.spec) ? obj.spec : {};
}

function qosClass(obj: KubeObject): string {
  const cs = (spec(obj).containers as Array<Record<string, unknown>> | undefined) ?? [];
  let all = true, any = false;
  for (const c of cs) {
    const r = (c.resources ?? {}) as { requests?: Record<string, string>; limits?: Record<string, string> };
    const req = r.requests ?? {}, lim = r.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const res of ['cpu', 'memory']) {
      const l = lim[res];
      if (l === undefined || (req[res] !== undefined && req[res] !== l)) all = false;
    }
  }
  if (all && cs.length) return 'Guaranteed';
  return any ? 'Burstable' : 'BestEffort';
}

export function validatePodSpecBasics(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const cs = spec(obj).containers;
  if (!Array.isArray(cs) || cs.length === 0) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.containers' });
    return errs;
  }
  const seen = new Set<string>();
  cs.forEach((c, i) => {
    const name = isObject(c) ? c.name : undefined;
    if (typeof name !== 'string' || !name) errs.push({ type: 'FieldValueRequired', field: `spec.containers[${i}].name` });
    else if (seen.has(name)) errs.push({ type: 'FieldValueDuplicate', field: `spec.containers[${i}].name`, value: name });
    else seen.add(name);
    if (!isObject(c) || typeof c.image !== 'string' || !c.image) errs.push({ type: 'FieldValueRequired', field: `spec.containers[${i}].image` });
  });
  return errs;
}

export const podStrategy = strategyWith({
  tracksGeneration: true,
  returnDeletedObject: true,
  prepareForCreate(obj) {
    if (!isObject(obj.spec)) obj.spec = {};
    defaultPodSpec(obj.spec);
    const s = obj.spec as Record<string, unknown>;
    if (s.priority === undefined) s.priority = 0;
    if (s.serviceAccountName === undefined) s.serviceAccountName = 'default';
    obj.status = { phase: 'Pending', qosClass: qosClass(obj) };
  },
  validateCreate: validatePodSpecBasics,
  validateUpdate: validatePodSpecBasics,
  deleteDecision(obj, requested) {
    const s = spec(obj);
    const phase = (obj.status as { phase?: string } | undefined)?.phase;
    // not yet on a node, or finished: nothing runs that would need time to stop
    if (!s.nodeName || phase === 'Succeeded' || phase === 'Failed') return { gracePeriodSeconds: 0 };
    const grace = requested ?? (typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 30);
    return { gracePeriodSeconds: Math.max(0, grace) };
  },
});
