// PersistentVolumes and PersistentVolumeClaims as Kubernetes' validation checks them: access
// modes, a storage size, exactly one volume source (with an absolute, `..`-free path where it
// names one), a local volume pinned by node affinity; a claim's spec fixed once created except
// what the binder and expansion may change, a volume's source fixed.

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { dns1123Subdomain } from '../../api/names.ts';
import { immutableField } from './immutable.ts';

type Obj = Record<string, unknown>;

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const quoted = (xs: string[]) => xs.map(x => `"${x}"`).join(', ');

/** the fields of a PersistentVolumeSpec that are not a volume source */
const notSources = new Set(['accessModes', 'capacity', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName', 'mountOptions', 'volumeMode', 'nodeAffinity', 'volumeAttributesClassName']);

function modesErrors(modes: unknown, field: string, required: string): FieldError[] {
  const list = Array.isArray(modes) ? modes.map(String) : [];
  if (list.length === 0) return [{ type: 'FieldValueRequired', field, detail: required }];
  const errs: FieldError[] = [];
  for (const m of list) if (!accessModes.includes(m)) errs.push({ type: 'FieldValueNotSupported', field, value: m, detail: `supported values: ${quoted(accessModes)}` });
  if (list.includes('ReadWriteOncePod') && list.length > 1) errs.push({ type: 'FieldValueForbidden', field, detail: 'may not use ReadWriteOncePod with other access modes' });
  return errs;
}

function commonErrors(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof s.volumeMode === 'string' && !volumeModes.includes(s.volumeMode)) errs.push({ type: 'FieldValueNotSupported', field: 'spec.volumeMode', value: s.volumeMode, detail: `supported values: ${quoted(volumeModes)}` });
  if (typeof s.storageClassName === 'string' && s.storageClassName !== '') {
    for (const d of dns1123Subdomain(s.storageClassName)) errs.push({ type: 'FieldValueInvalid', field: 'spec.storageClassName', value: s.storageClassName, detail: d });
  }
  return errs;
}

export function validateClaim(obj: KubeObject): FieldError[] {
  const s: Obj = isObject(obj.spec) ? obj.spec : {};
  const errs = modesErrors(s.accessModes, 'spec.accessModes', 'at least 1 access mode is required');
  const requests = isObject(s.resources) && isObject(s.resources.requests) ? s.resources.requests : {};
  const storage = requests.storage;
  if (storage === undefined) errs.push({ type: 'FieldValueRequired', field: 'spec.resources[storage]' });
  else if (!((parseQuantity(storage) ?? 0) > 0)) errs.push({ type: 'FieldValueInvalid', field: 'spec.resources[storage]', value: String(storage), detail: 'must be greater than zero' });
  return [...errs, ...commonErrors(s)];
}

export function validateVolume(obj: KubeObject): FieldError[] {
  const s: Obj = isObject(obj.spec) ? obj.spec : {};
  const errs = modesErrors(s.accessModes, 'spec.accessModes', 'must contain at least one access mode');
  const capacity = isObject(s.capacity) ? s.capacity : {};
  if (Object.keys(capacity).length === 0) errs.push({ type: 'FieldValueRequired', field: 'spec.capacity' });
  else if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push({ type: 'FieldValueNotSupported', field: 'spec.capacity', value: capacity, detail: 'supported values: "storage"' });
  if (typeof s.persistentVolumeReclaimPolicy === 'string' && !reclaimPolicies.includes(s.persistentVolumeReclaimPolicy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.persistentVolumeReclaimPolicy', value: s.persistentVolumeReclaimPolicy, detail: `supported values: ${quoted(reclaimPolicies)}` });
  }
  const sources = Object.keys(s).filter(k => !notSources.has(k) && isObject(s[k]));
  if (sources.length === 0) errs.push({ type: 'FieldValueRequired', field: 'spec', detail: 'must specify a volume type' });
  for (const extra of sources.slice(1)) errs.push({ type: 'FieldValueForbidden', field: `spec.${extra}`, detail: 'may not specify more than 1 volume type' });
  const hostPath = isObject(s.hostPath) ? s.hostPath : undefined;
  if (hostPath) errs.push(...pathErrors(hostPath.path, 'spec.hostPath.path', false));
  const local = isObject(s.local) ? s.local : undefined;
  if (local) {
    errs.push(...pathErrors(local.path, 'spec.local.path', true));
    if (!isObject(s.nodeAffinity)) errs.push({ type: 'FieldValueRequired', field: 'spec.nodeAffinity', detail: 'Local volume requires node affinity' });
  }
  return [...errs, ...commonErrors(s)];
}

function pathErrors(path: unknown, field: string, absolute: boolean): FieldError[] {
  if (typeof path !== 'string' || path === '') return [{ type: 'FieldValueRequired', field }];
  if (path.split('/').includes('..')) return [{ type: 'FieldValueInvalid', field, value: path, detail: "must not contain '..'" }];
  if (absolute && !path.startsWith('/')) return [{ type: 'FieldValueInvalid', field, value: path, detail: 'must be an absolute path' }];
  return [];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A claim's spec is fixed after creation, except: volumeName set once (by the binder), a class
 * given to a claim that had none (the default class, given late), and the requests and
 * volumeAttributesClassName of a bound claim (expansion, modification).
 */
export function validateClaimUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const s: Obj = { ...(isObject(obj.spec) ? obj.spec : {}) };
  const o: Obj = isObject(old.spec) ? old.spec : {};
  if (!o.volumeName) s.volumeName = o.volumeName;
  if (o.storageClassName == null) s.storageClassName = o.storageClassName;
  const bound = isObject(old.status) && old.status.phase === 'Bound';
  if (bound) { s.resources = o.resources; s.volumeAttributesClassName = o.volumeAttributesClassName; }
  const errs = validateClaim(obj);
  if (!same(stripUndefined(s), stripUndefined(o))) errs.push({ type: 'FieldValueForbidden', field: 'spec', detail: 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims' });
  return errs;
}

/** a volume's source and mode are fixed after creation; node affinity once set */
export function validateVolumeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const s: Obj = isObject(obj.spec) ? obj.spec : {};
  const o: Obj = isObject(old.spec) ? old.spec : {};
  const errs = validateVolume(obj);
  const source = (x: Obj) => Object.fromEntries(Object.entries(x).filter(([k]) => !notSources.has(k)));
  if (!same(source(s), source(o))) errs.push({ type: 'FieldValueForbidden', field: 'spec.persistentvolumesource', detail: 'spec.persistentvolumesource is immutable after creation' });
  if ((s.volumeMode ?? 'Filesystem') !== (o.volumeMode ?? 'Filesystem')) errs.push(immutableField('spec.volumeMode', s.volumeMode));
  if (o.nodeAffinity !== undefined && !same(s.nodeAffinity, o.nodeAffinity)) errs.push(immutableField('spec.nodeAffinity', s.nodeAffinity));
  return errs;
}

function stripUndefined(x: Obj): Obj {
  return JSON.parse(JSON.stringify(x)) as Obj;
}
