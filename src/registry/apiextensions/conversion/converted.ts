// What a conversion webhook may change of an object's metadata: nothing but its labels and
// annotations. kube-apiserver checks the identity of each converted object against the one sent
// and then puts the original metadata back, keeping only the webhook's labels and annotations
// (checked as metadata is on a write when they changed). The errors are its words.

import { isObject, type KubeObject } from '../../../api/object.ts';
import { fieldErrorMessage, type FieldError } from '../../../api/status.ts';
import { validateMetadata } from '../../validation/metadata.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** kind, name, namespace and uid must be those of the object sent */
export function identityError(sent: KubeObject, got: Record<string, unknown>): string | undefined {
  const meta = isObject(got.metadata) ? got.metadata : {};
  const checks: Array<[string, string, string]> = [
    ['kind', str(sent.kind), str(got.kind)],
    ['name', str(sent.metadata.name), str(meta.name)],
    ['namespace', str(sent.metadata.namespace), str(meta.namespace)],
    ['UID', str(sent.metadata.uid), str(meta.uid)],
  ];
  for (const [what, want, have] of checks) if (want !== have) return `must have the same ${what}: ${want} != ${have}`;
  return undefined;
}

/** Go's %T of a decoded JSON value, as the messages name it */
function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (isObject(v)) return 'map[string]interface {}';
  return '<nil>';
}

function aggregate(errs: FieldError[]): string {
  const msgs = errs.map(fieldErrorMessage);
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/**
 * The converted object with the sent object's metadata, but the webhook's labels and
 * annotations; throws with kube-apiserver's reason when those are not string maps or not valid.
 */
export function withOriginalMetadata(sent: KubeObject, got: Record<string, unknown>): KubeObject {
  if (!('metadata' in got)) throw new Error('missing metadata in converted object');
  const answered = got.metadata;
  if (!isObject(answered)) throw new Error(`invalid metadata of type ${goType(answered)} in converted object`);
  const meta: Record<string, unknown> = structuredClone(sent.metadata) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const theirs = answered[field];
    if (theirs === undefined || theirs === null) { delete meta[field]; continue; }
    if (!isObject(theirs)) throw new Error(`invalid metadata.${field} of type ${goType(theirs)} in converted object`);
    const ours = (meta[field] ?? {}) as Record<string, unknown>;
    let changed = Object.keys(ours).length !== Object.keys(theirs).length;
    for (const [k, v] of Object.entries(theirs)) {
      if (typeof v !== 'string') throw new Error(`metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`);
      if (ours[k] !== v) changed = true;
    }
    if (changed) {
      const errs = validateMetadata({ metadata: { [field]: theirs } } as KubeObject)
        // kube-apiserver checks annotations here under the path `metadata.annotation`
        .map(e => (field === 'annotations' ? { ...e, field: e.field.replace(/^metadata\.annotations/, 'metadata.annotation') } : e));
      if (errs.length) throw new Error(aggregate(errs));
    }
    meta[field] = theirs;
  }
  return { ...got, metadata: meta } as KubeObject;
}
