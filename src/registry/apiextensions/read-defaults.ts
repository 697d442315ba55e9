// Defaulting of custom resources read from storage. apiextensions-apiserver's storage codec
// defaults every object it decodes with the schema of the version the object is stored in,
// before converting it to the version served, so a default added to a schema shows on objects
// written before it without rewriting them (reads: get, list, watch; and the old object an
// update starts from). Nothing is written back. A CRD none of whose versions declares a
// default costs nothing: there is no hook at all.

import type { ReadHook } from '../stored-object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import { defaultInPlace, schemaHasDefaults, type JSONSchemaProps } from '../../schema/structural/index.ts';


const hooks = new WeakMap<object, ReadHook | null>();

function versionOf(apiVersion: unknown): string {
  const s = String(apiVersion ?? '');
  return s.slice(s.indexOf('/') + 1);
}

function hookFor(schemas: Record<string, unknown>): ReadHook | null {
  const withDefaults = new Map<string, JSONSchemaProps>();
  for (const [version, schema] of Object.entries(schemas)) {
    if (schemaHasDefaults(schema)) withDefaults.set(version, schema as JSONSchemaProps);
  }
  if (withDefaults.size === 0) return null;
  return stored => {
    const schema = withDefaults.get(versionOf(stored.apiVersion));
    if (schema) defaultInPlace(schema, stored);
  };
}

/** what reads of this resource apply to each stored object; undefined when nothing needs it */
export function readDefaults(info: ResourceInfo): ReadHook | undefined {
  const schemas = info.custom?.versionSchemas;
  if (!schemas) return undefined;
  // every served version of a CRD shares one map of schemas, so one hook
  let hook = hooks.get(schemas);
  if (hook === undefined) hooks.set(schemas, hook = hookFor(schemas));
  return hook ?? undefined;
}
