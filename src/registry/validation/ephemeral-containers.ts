// Ephemeral containers (kubectl debug), checked as kube-apiserver checks them: each is a
// container with a unique name across all of the pod's containers, an image, only the fields an
// ephemeral container may have (no ports, probes, lifecycle, resources: they must not be relied
// on for the pod's own service), no volume subPaths, and a targetContainerName that names one of
// the pod's regular or init containers. Once added, one is never removed or changed; a pod is
// created without any, and a static pod takes none.

import { isObject, jsonEqual, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { dns1123Label } from '../../api/names.ts';

type Obj = Record<string, unknown>;

const MIRROR = 'kubernetes.io/config.mirror';
const notAllowed = 'cannot be set for an Ephemeral Container';

/**
 * The fields of EphemeralContainerCommon an ephemeral container may not set, in the Go struct's
 * order (the order Kubernetes reports them in).
 */
const forbiddenFields = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];

const list = (spec: unknown, key: string): unknown[] => (isObject(spec) && Array.isArray(spec[key]) ? spec[key] : []);
const names = (spec: unknown, key: string) => list(spec, key).filter(isObject).map(c => c.name).filter((n): n is string => typeof n === 'string');

/** Go's zero value test as the allow list applies it: unset, empty lists and maps, empty structs, false, "" */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.values(v).every(isZero);
  return false;
}

/** errors of `spec.ephemeralContainers` in a pod spec (at `path`, normally "spec") */
export function validateEphemeralContainers(spec: unknown, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const ecs = list(spec, 'ephemeralContainers');
  if (ecs.length === 0) return errs;
  // targets may be regular or init containers, never another ephemeral container
  const others = new Set([...names(spec, 'containers'), ...names(spec, 'initContainers')]);
  const all = new Set(others);
  ecs.forEach((ec, i) => {
    const at = `${path}.ephemeralContainers[${i}]`;
    if (!isObject(ec)) return;
    const name = ec.name;
    if (typeof name !== 'string' || !name) errs.push({ type: 'FieldValueRequired', field: `${at}.name` });
    else {
      const bad = dns1123Label(name)[0];
      if (bad) errs.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: name, detail: bad });
    }
    if (typeof ec.image !== 'string' || !ec.image) errs.push({ type: 'FieldValueRequired', field: `${at}.image` });
    else if (ec.image !== ec.image.trim()) errs.push({ type: 'FieldValueInvalid', field: `${at}.image`, value: ec.image, detail: 'must not have leading or trailing whitespace' });
    if (ec.imagePullPolicy !== undefined && !pullPolicies.includes(String(ec.imagePullPolicy))) {
      errs.push({ type: 'FieldValueNotSupported', field: `${at}.imagePullPolicy`, value: ec.imagePullPolicy, detail: `supported values: ${pullPolicies.map(p => JSON.stringify(p)).join(', ')}` });
    }
    if (typeof name === 'string' && name) {
      if (all.has(name)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: name });
      else all.add(name);
    }
    const target = ec.targetContainerName;
    if (typeof target === 'string' && target && !others.has(target)) errs.push({ type: 'FieldValueNotFound', field: `${at}.targetContainerName`, value: target });
    for (const f of forbiddenFields) if (!isZero(ec[f])) errs.push({ type: 'FieldValueForbidden', field: `${at}.${f}`, detail: notAllowed });
    list(ec, 'volumeMounts').forEach((vm, j) => {
      if (!isObject(vm)) return;
      if (vm.subPath) errs.push({ type: 'FieldValueForbidden', field: `${at}.volumeMounts[${j}].subPath`, detail: notAllowed });
      if (vm.subPathExpr) errs.push({ type: 'FieldValueForbidden', field: `${at}.volumeMounts[${j}].subPathExpr`, detail: notAllowed });
    });
  });
  return errs;
}

/** a new pod has no ephemeral containers: they are added through pods/ephemeralcontainers only */
export function validateNoEphemeralContainersOnCreate(spec: unknown): FieldError[] {
  return list(spec, 'ephemeralContainers').length ? [{ type: 'FieldValueForbidden', field: 'spec.ephemeralContainers', detail: 'cannot be set on create' }] : [];
}

/** `- field: old` / `+ field: new` lines for each top-level field that differs (Kubernetes prints a Go diff here) */
function diff(was: Obj, now: Obj): string {
  const lines: string[] = [];
  for (const k of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (jsonEqual(was[k], now[k])) continue;
    if (was[k] !== undefined) lines.push(`- \t${k}: ${JSON.stringify(was[k])},`);
    if (now[k] !== undefined) lines.push(`+ \t${k}: ${JSON.stringify(now[k])},`);
  }
  return lines.join('\n');
}

/**
 * A write through pods/ephemeralcontainers: the pod is checked whole, then the ephemeral
 * containers it had must all still be there, unchanged (matched by name: a patch may reorder
 * them). A static pod refuses any, and that refusal replaces every other.
 */
export function validateEphemeralContainersUpdate(obj: KubeObject, old: KubeObject, specErrors: FieldError[]): FieldError[] {
  const annotations = (old.metadata as { annotations?: Record<string, string> }).annotations;
  // (a path with no name, which Kubernetes prints as "[]")
  if (annotations?.[MIRROR] !== undefined) return [{ type: 'FieldValueForbidden', field: '[]', detail: 'static pods do not support ephemeral containers' }];
  const errs = [...specErrors, ...validateEphemeralContainers(obj.spec)];
  const now = new Map(list(obj.spec, 'ephemeralContainers').filter(isObject).map(c => [c.name, c]));
  for (const was of list(old.spec, 'ephemeralContainers').filter(isObject)) {
    const name = String(was.name);
    const found = now.get(was.name);
    if (!found) errs.push({ type: 'FieldValueForbidden', field: 'spec.ephemeralContainers', detail: `existing ephemeral containers "${name}" may not be removed\n` });
    else if (!jsonEqual(found, was)) errs.push({ type: 'FieldValueForbidden', field: 'spec.ephemeralContainers', detail: `existing ephemeral containers "${name}" may not be changed\n${diff(was, found)}` });
  }
  return errs;
}
