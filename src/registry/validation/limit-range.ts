// LimitRange validation as kube-apiserver words it: one item per type, a type Kubernetes knows
// (or a qualified name), no defaults on Pod items, a PersistentVolumeClaim item bounding
// storage, and per resource min ≤ defaultRequest ≤ default ≤ max, a ratio of at least 1 and at
// most max/min, and default equal to defaultRequest for what may not be overcommitted.
// Resources are looked at in name order (Kubernetes walks a set, in no fixed order).

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { canonicalQuantity, compareQuantities, parseQuantity } from '../../api/quantity.ts';
import { qualifiedNameErrors } from '../../api/label-rules.ts';

type Amounts = Record<string, string>;
const standardTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

const show = (q: string) => canonicalQuantity(q) ?? String(q);
const cmp = (a: string, b: string) => compareQuantities(a, b) ?? 0;
const amounts = (v: unknown): Amounts => (isObject(v) ? v as Amounts : {});

/** cpu, memory and the like may be overcommitted; hugepages and extended resources may not */
function overcommitAllowed(name: string): boolean {
  const slash = name.indexOf('/');
  const native = slash < 0 || name.slice(0, slash) === 'kubernetes.io' || name.slice(0, slash).endsWith('.kubernetes.io');
  return native && !name.startsWith('hugepages-');
}

function typeErrors(type: string, field: string): FieldError[] {
  const bad = qualifiedNameErrors(type);
  if (bad.length) return bad.map(detail => ({ type: 'FieldValueInvalid', field, value: type, detail }));
  if (!type.includes('/') && !standardTypes.includes(type)) return [{ type: 'FieldValueInvalid', field, value: type, detail: 'must be a standard limit type or fully qualified' }];
  return [];
}

function itemErrors(item: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const invalid = (field: string, value: string, detail: string) => errors.push({ type: 'FieldValueInvalid', field: `${path}.${field}`, value: show(value), detail });
  const type = String(item.type ?? '');
  const min = amounts(item.min), max = amounts(item.max), ratio = amounts(item.maxLimitRequestRatio);
  let def: Amounts = {}, defReq: Amounts = {};
  if (type === 'Pod') {
    if (Object.keys(amounts(item.default)).length) errors.push({ type: 'FieldValueForbidden', field: `${path}.default`, detail: 'may not be specified when `type` is \'Pod\'' });
    if (Object.keys(amounts(item.defaultRequest)).length) errors.push({ type: 'FieldValueForbidden', field: `${path}.defaultRequest`, detail: 'may not be specified when `type` is \'Pod\'' });
  } else {
    def = amounts(item.default);
    defReq = amounts(item.defaultRequest);
  }
  if (type === 'PersistentVolumeClaim' && !('storage' in min) && !('storage' in max)) {
    errors.push({ type: 'FieldValueRequired', field: `${path}.limits`, detail: 'either minimum or maximum storage value is required, but neither was provided' });
  }
  const names = [...new Set([...Object.keys(max), ...Object.keys(min), ...Object.keys(def), ...Object.keys(defReq), ...Object.keys(ratio)])].sort();
  for (const k of names) {
    const mn = min[k], mx = max[k], d = def[k], dr = defReq[k], r = ratio[k];
    if (mn !== undefined && mx !== undefined && cmp(mn, mx) > 0) invalid(`min[${k}]`, mn, `min value ${show(mn)} is greater than max value ${show(mx)}`);
    if (dr !== undefined && mn !== undefined && cmp(mn, dr) > 0) invalid(`defaultRequest[${k}]`, dr, `min value ${show(mn)} is greater than default request value ${show(dr)}`);
    if (dr !== undefined && mx !== undefined && cmp(dr, mx) > 0) invalid(`defaultRequest[${k}]`, dr, `default request value ${show(dr)} is greater than max value ${show(mx)}`);
    if (dr !== undefined && d !== undefined && cmp(dr, d) > 0) invalid(`defaultRequest[${k}]`, dr, `default request value ${show(dr)} is greater than default limit value ${show(d)}`);
    if (d !== undefined && mn !== undefined && cmp(mn, d) > 0) invalid(`default[${k}]`, mn, `min value ${show(mn)} is greater than default value ${show(d)}`);
    if (d !== undefined && mx !== undefined && cmp(d, mx) > 0) invalid(`default[${k}]`, mx, `default value ${show(d)} is greater than max value ${show(mx)}`);
    if (r !== undefined && cmp(r, '1') < 0) invalid(`maxLimitRequestRatio[${k}]`, r, `ratio ${show(r)} is less than 1`);
    if (r !== undefined && mn !== undefined && mx !== undefined) {
      const limit = (parseQuantity(mx) ?? 0) / (parseQuantity(mn) ?? 0);
      if ((parseQuantity(r) ?? 0) > limit) invalid(`maxLimitRequestRatio[${k}]`, r, `ratio ${show(r)} is greater than max/min = ${limit.toFixed(6)}`);
    }
    if (!overcommitAllowed(k) && d !== undefined && dr !== undefined && cmp(d, dr) !== 0) {
      invalid(`defaultRequest[${k}]`, dr, `default value ${show(d)} must equal to defaultRequest value ${show(dr)} in ${k}`);
    }
  }
  return errors;
}

export function validateLimitRange(obj: KubeObject): FieldError[] {
  const limits = isObject(obj.spec) && Array.isArray(obj.spec.limits) ? obj.spec.limits : [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  limits.forEach((item, i) => {
    if (!isObject(item)) return;
    const path = `spec.limits[${i}]`;
    const type = String(item.type ?? '');
    errors.push(...typeErrors(type, `${path}.type`));
    if (seen.has(type)) errors.push({ type: 'FieldValueDuplicate', field: `${path}.type`, value: type });
    seen.add(type);
    errors.push(...itemErrors(item, path));
  });
  return errors;
}
