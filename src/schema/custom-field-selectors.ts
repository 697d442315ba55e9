// Field selectors of a custom resource, as apiextensions-apiserver converts and matches them:
// metadata.name, metadata.namespace when the resource is namespaced, and the served version's
// selectableFields (labelled by their JSONPath without the leading dot); anything else is
// refused with "field label not supported: <label>". A selectable field's value is what
// fmt.Sprint prints of the one value its path finds, or "" when it finds none or null.

import { badRequest } from '../api/status.ts';
import type { KubeObject } from '../api/object.ts';
import type { FieldSelector } from '../api/selectors/field.ts';
import { evaluateJsonPath, parseJsonPath, type Step } from '../api/jsonpath/evaluate.ts';
import { goFloat } from './structural/go-format.ts';
import type { ResourceInfo } from './types.ts';

type Reader = (obj: KubeObject) => string | undefined;

const metaName: Reader = o => o.metadata?.name ?? '';
const metaNamespace: Reader = o => o.metadata?.namespace ?? '';

/** fmt.Sprint of a JSON value as Go's unstructured objects hold it */
function sprint(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** the reader of one selectable field; undefined (no match possible) where Kubernetes errs */
function selectableReader(steps: Step[] | undefined): Reader {
  return obj => {
    if (!steps) return undefined;
    let found: unknown[];
    try { found = evaluateJsonPath(steps, obj); } catch { return undefined; }
    if (found.length > 1) return undefined;
    const v = found[0];
    return v === undefined || v === null ? '' : sprint(v);
  };
}

const readersByServing = new WeakMap<object, Map<string, Reader>>();

/** every label the served version accepts, with how to read it */
function readersOf(info: ResourceInfo): Map<string, Reader> {
  const serving = info.custom!;
  let readers = readersByServing.get(serving);
  if (readers) return readers;
  readers = new Map([['metadata.name', metaName]]);
  if (info.namespaced) readers.set('metadata.namespace', metaNamespace);
  for (const label of serving.selectableFields ?? []) {
    let steps: Step[] | undefined;
    try { steps = parseJsonPath(`.${label}`); } catch { steps = undefined; }
    readers.set(label, selectableReader(steps));
  }
  readersByServing.set(serving, readers);
  return readers;
}

/** the selector checked against the labels the custom resource's version accepts (400 otherwise) */
export function validateCustomFieldSelector(info: ResourceInfo, sel: FieldSelector): FieldSelector {
  const readers = readersOf(info);
  for (const r of sel.requirements) {
    if (!readers.has(r.field)) throw badRequest(`field label not supported: ${r.field}`);
  }
  return sel;
}

/** the list and watch filter of a validated selector */
export function customFieldFilter(info: ResourceInfo, sel: FieldSelector): (obj: KubeObject) => boolean {
  const readers = readersOf(info);
  const checks = sel.requirements.map(r => ({ read: readers.get(r.field) ?? (() => ''), r }));
  return obj => checks.every(({ read, r }) => {
    const v = read(obj);
    return v !== undefined && (v === r.value) === (r.operator === '=');
  });
}
