// ResourceQuota validation as kube-apiserver words it: each hard name a resource quota knows
// (or a qualified name), each figure not negative and whole where only whole numbers make sense,
// scopes Kubernetes knows that suit the resources limited (BestEffort pods have no compute to
// count), no contradicting pair, scope selector operators that fit their scope, and scopes that
// never change. Names are looked at in order (Kubernetes walks its map in no fixed order).

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { canonicalQuantity, compareQuantities, exactQuantity } from '../../api/quantity.ts';
import { qualifiedNameErrors } from '../../api/label-rules.ts';
import { immutableField } from './immutable.ts';

const compute = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
const quotaNames = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers', 'requests.storage', 'ephemeral-storage',
  'requests.ephemeral-storage', 'limits.ephemeral-storage', ...compute,
]);
const resourceNames = new Set([...quotaNames, 'storage']);
const integerNames = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
const hugePages = (n: string) => n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || n.startsWith('limits.hugepages-');
const isQuotaName = (n: string) => quotaNames.has(n) || hugePages(n);

const scopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];
const existsOnly = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];
const conflicting = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];

/** what a scope may limit: pods, and their compute unless they are BestEffort; claims for VolumeAttributesClass */
function scopeSuits(scope: string, name: string): boolean {
  if (scope === 'BestEffort') return name === 'pods';
  if (scope === 'VolumeAttributesClass') return name === 'persistentvolumeclaims' || name === 'requests.storage';
  if (scopes.includes(scope)) return name === 'pods' || compute.includes(name);
  return true;
}

/** an extended resource (example.com/gpu): counted in whole units, as object counts are */
function extended(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0 || name.startsWith('requests.')) return false;
  const domain = name.slice(0, slash);
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

function hardErrors(hard: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of Object.keys(hard).sort()) {
    const field = `${path}[${name}]`;
    const value = String(hard[name]);
    const bad = qualifiedNameErrors(name);
    for (const detail of bad) errors.push({ type: 'FieldValueInvalid', field, value: name, detail });
    if (!bad.length && !name.includes('/') && !resourceNames.has(name) && !hugePages(name)) {
      errors.push({ type: 'FieldValueInvalid', field, value: name, detail: 'must be a standard resource type or fully qualified' });
    }
    if (!name.includes('/') && !isQuotaName(name)) errors.push({ type: 'FieldValueInvalid', field, value: name, detail: 'must be a standard resource for quota' });
    const shown = canonicalQuantity(value) ?? value;
    if ((compareQuantities(value, '0') ?? 0) < 0) errors.push({ type: 'FieldValueInvalid', field, value: shown, detail: 'must be greater than or equal to 0' });
    const x = exactQuantity(value);
    if ((integerNames.has(name) || extended(name)) && x && x.num % 10n ** BigInt(x.scale) !== 0n) {
      errors.push({ type: 'FieldValueInvalid', field, value: shown, detail: 'must be an integer' });
    }
  }
  return errors;
}

function scopeErrors(spec: Record<string, any>, hardNames: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const limited = hardNames.filter(isQuotaName).sort();
  const list: string[] = Array.isArray(spec.scopes) ? spec.scopes : [];
  for (const scope of list) {
    if (!scopes.includes(scope)) errors.push({ type: 'FieldValueInvalid', field: 'spec.scopes', value: list, detail: 'unsupported scope' });
    for (const name of limited) if (!scopeSuits(scope, name)) errors.push({ type: 'FieldValueInvalid', field: 'spec.scopes', value: list, detail: 'unsupported scope applied to resource' });
  }
  for (const pair of conflicting) if (pair.every(s => list.includes(s))) errors.push({ type: 'FieldValueInvalid', field: 'spec.scopes', value: list, detail: 'conflicting scopes' });

  const selector = spec.scopeSelector;
  if (!isObject(selector)) return errors;
  const path = 'spec.scopeSelector.matchExpressions';
  const named: string[] = [];
  for (const req of Array.isArray(selector.matchExpressions) ? selector.matchExpressions as any[] : []) {
    const scope = String(req?.scopeName ?? ''), op = String(req?.operator ?? ''), values: string[] = req?.values ?? [];
    if (!scopes.includes(scope)) errors.push({ type: 'FieldValueInvalid', field: `${path}.scopeName`, value: scope, detail: 'unsupported scope' });
    for (const name of limited) if (!scopeSuits(scope, name)) errors.push({ type: 'FieldValueInvalid', field: path, value: selector, detail: 'unsupported scope applied to resource' });
    if (existsOnly.includes(scope) && op !== 'Exists') {
      errors.push({ type: 'FieldValueInvalid', field: `${path}.operator`, value: op, detail: 'must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity' });
    }
    if (op === 'In' || op === 'NotIn') {
      if (!values.length) errors.push({ type: 'FieldValueRequired', field: `${path}.values`, detail: 'must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector' });
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length) errors.push({ type: 'FieldValueInvalid', field: `${path}.values`, value: values, detail: 'must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector' });
    } else {
      errors.push({ type: 'FieldValueInvalid', field: `${path}.operator`, value: op, detail: 'not a valid selector operator' });
    }
    named.push(scope);
  }
  for (const pair of conflicting) if (pair.every(s => named.includes(s))) errors.push({ type: 'FieldValueInvalid', field: path, value: selector, detail: 'conflicting scopes' });
  return errors;
}

export function validateResourceQuota(obj: KubeObject): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const hard = isObject(spec.hard) ? spec.hard : {};
  return [...hardErrors(hard, 'spec.hard'), ...scopeErrors(spec, Object.keys(hard))];
}

/** scopes are fixed at creation: what a quota counts cannot change under it */
export function validateResourceQuotaUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const scopesOf = (o: KubeObject) => [...new Set<string>(isObject(o.spec) && Array.isArray(o.spec.scopes) ? o.spec.scopes : [])].sort();
  const errors = validateResourceQuota(obj);
  if (JSON.stringify(scopesOf(obj)) !== JSON.stringify(scopesOf(old))) errors.push(immutableField('spec.scopes', isObject(obj.spec) ? obj.spec.scopes ?? null : null));
  return errors;
}
