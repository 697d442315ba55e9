// The defaults a structural schema declares must be values the schema accepts, as
// apiextensions-apiserver's ValidateDefaults checks them when a CRD is written: a default
// must survive pruning unchanged ("must not have unknown fields"), make valid embedded
// resources, and pass the node's own value validation, its errors under `<node>.default`.
// Defaults under a resource's apiVersion, kind and metadata are left to the schema rules
// (which forbid them at the top level). x-kubernetes-validations rules are not run here.

import type { FieldError } from '../../api/status.ts';
import { embeddedResourceErrors } from './embedded.ts';
import { pruneValue } from './pruning.ts';
import { child, itemsSchema, key, type JSONSchemaProps } from './types.ts';
import { jsonEqual, validateNode } from './validate.ts';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** errors of every default in `schema` (the openAPIV3Schema at `path`) */
export function defaultValueErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  return walk({ ...schema, 'x-kubernetes-embedded-resource': true }, path, false);
}

function walk(s: JSONSchemaProps, path: string, insideMeta: boolean): FieldError[] {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const inMeta = embedded ? false : insideMeta;
  const errs: FieldError[] = [];
  if (s.default !== undefined && s.default !== null && !inMeta) errs.push(...checkDefault(s, s.default, child(path, 'default')));
  const items = itemsSchema(s);
  if (items) errs.push(...walk(items, child(path, 'items'), inMeta));
  for (const [k, p] of Object.entries(s.properties ?? {})) errs.push(...walk(p, key(child(path, 'properties'), k), inMeta || (embedded && metaFields.has(k))));
  return errs;
}

function checkDefault(s: JSONSchemaProps, value: unknown, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!jsonEqual(pruneValue(s, value, s['x-kubernetes-embedded-resource'] === true).object, value)) errs.push({ type: 'FieldValueInvalid', field: at, value, detail: 'must not have unknown fields' });
  const meta = embeddedResourceErrors(s, value, at);
  if (meta.length > 0) return [...errs, ...meta];
  const values = validateNode(s, value, '').map(e => ({ ...e, field: e.field === '<nil>' ? at : `${at}.${e.field}` }));
  return [...errs, ...values];
}
