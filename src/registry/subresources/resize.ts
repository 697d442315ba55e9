// pods/resize (Kubernetes 1.33+): the one way to change a running pod's CPU and memory. A write
// through it keeps the stored pod except each container's `resources` and `resizePolicy`
// (matched by name; other changes are dropped, as dropNonResizeUpdates drops them), and is
// refused in ValidatePodResize's words when it would change the pod's QoS class, remove a
// request or a limit, touch a resource other than cpu and memory, or resize a static pod.
// The node agent sees the new spec and applies it to the running containers.

import { deepClone, isObject, jsonEqual, type KubeObject } from '../../api/object.ts';
import { computeQosClass, podQosClass, type QosPod } from '../../api/qos.ts';
import type { FieldError } from '../../api/status.ts';
import { validatePodSpec } from '../validation/pod-spec.ts';
import { ownKind, type Subresource } from './subresource.ts';

type Obj = Record<string, unknown>;
type Resources = { requests?: Obj; limits?: Obj };

const containerLists = ['initContainers', 'containers'] as const;
const mutable = new Set(['cpu', 'memory']);
const MIRROR = 'kubernetes.io/config.mirror';

const list = (spec: unknown, key: string): Obj[] => (isObject(spec) && Array.isArray(spec[key]) ? spec[key].filter(isObject) : []);
const resourcesOf = (c: Obj | undefined): Resources => (isObject(c?.resources) ? c.resources as Resources : {});

/** the stored pod with each container's resources and resizePolicy from the write */
function prepare(obj: KubeObject, current: KubeObject): KubeObject {
  const out = deepClone(current);
  for (const key of containerLists) {
    const asked = new Map(list(obj.spec, key).map(c => [c.name, c]));
    for (const c of list(out.spec, key)) {
      const w = asked.get(c.name);
      if (!w) continue;
      if (w.resources === undefined) delete c.resources; else c.resources = w.resources;
      if (w.resizePolicy === undefined) delete c.resizePolicy; else c.resizePolicy = w.resizePolicy;
    }
  }
  return out;
}

/** a container's requests and limits without cpu and memory, to see whether anything else changed */
const others = (r: Resources) => ({
  requests: Object.fromEntries(Object.entries(r.requests ?? {}).filter(([k]) => !mutable.has(k))),
  limits: Object.fromEntries(Object.entries(r.limits ?? {}).filter(([k]) => !mutable.has(k))),
  claims: (r as Obj).claims,
});

function validate(obj: KubeObject, current: KubeObject): FieldError[] {
  const meta = current.metadata as { annotations?: Record<string, string> };
  if (meta.annotations?.[MIRROR] !== undefined) return [{ type: 'FieldValueForbidden', field: '', detail: 'static pods cannot be resized' }];
  const spec = isObject(current.spec) ? current.spec : {};
  if (isObject(spec.os) && spec.os.name === 'windows') return [{ type: 'FieldValueForbidden', field: '', detail: 'windows pods cannot be resized' }];
  const errs = validatePodSpec(obj.spec, 'spec');
  const stored = podQosClass(current as QosPod);
  if (computeQosClass(obj as QosPod) !== stored) errs.push({ type: 'FieldValueInvalid', field: 'spec', value: stored, detail: 'Pod QOS Class may not change as a result of resizing' });
  let otherChanged = false;
  for (const key of containerLists) {
    const now = list(obj.spec, key);
    list(current.spec, key).forEach((was, i) => {
      const before = resourcesOf(was), after = resourcesOf(now[i]);
      const at = `spec.${key}[${i}].resources`;
      for (const name of Object.keys(before.requests ?? {})) if (!(name in (after.requests ?? {}))) errs.push({ type: 'FieldValueForbidden', field: `${at}.requests[${name}]`, detail: 'resource requests cannot be removed' });
      for (const name of Object.keys(before.limits ?? {})) if (!(name in (after.limits ?? {}))) errs.push({ type: 'FieldValueForbidden', field: `${at}.limits[${name}]`, detail: 'resource limits cannot be removed' });
      if (!jsonEqual(others(before), others(after))) otherChanged = true;
    });
  }
  if (otherChanged) errs.push({ type: 'FieldValueForbidden', field: 'spec', detail: 'only cpu and memory resources are mutable' });
  return errs;
}

export const resizeSubresource: Subresource = {
  name: 'resize',
  verbs: ['get', 'patch', 'update'],
  connect: false,
  kind: ownKind,
  ownedFields: containerLists.flatMap(k => [['spec', k]]),
  view: { apply: true },
  writes: {
    prepare: (obj, current) => prepare(obj, current),
    validate: (obj, current) => validate(obj, current),
  },
};
