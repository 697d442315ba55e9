// The OpenAPI of the custom resources the catalog serves, built per CRD version on first use and
// kept until that version changes (its names, scope, subresources, schema or selectable fields),
// as apiextensions-apiserver keeps one spec per CRD and rebuilds only the one that changed.

import { createHash } from 'node:crypto';
import type { ResourceInfo } from '../schema/types.ts';
import type { JSONSchemaProps } from '../schema/structural/types.ts';
import { crdDefinitions } from '../schema/crd-openapi/definitions.ts';
import { resourcePaths } from './openapi-paths.ts';

type Json = Record<string, unknown>;

export interface CustomOpenAPI {
  /** changes whenever anything published of this resource version changes */
  key: string;
  /** Swagger 2.0 path items */
  paths: Record<string, Json>;
  /** the kind and list definitions for the v2 document */
  v2Definitions(): Record<string, Json>;
  /** the same as OpenAPI 3.0 component schemas */
  v3Definitions(): Record<string, Json>;
}

// schema objects are replaced whenever their CRD changes, so a schema is hashed once
const schemaHashes = new WeakMap<object, string>();

function schemaHash(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '-';
  let h = schemaHashes.get(schema);
  if (!h) {
    h = createHash('sha1').update(JSON.stringify(schema)).digest('hex');
    schemaHashes.set(schema, h);
  }
  return h;
}

/** what of a served custom resource version its OpenAPI depends on */
export function customOpenAPIKey(r: ResourceInfo): string {
  const c = r.custom;
  return [r.group, r.version, r.resource, r.kind, r.listKind, r.namespaced ? 'ns' : 'cluster', r.verbs.join(','),
    r.subresources.map(s => s.name).join(','), schemaHash(c?.schema), (c?.selectableFields ?? []).join(',')].join('|');
}

function build(r: ResourceInfo, key: string): CustomOpenAPI {
  const model = {
    group: r.group, version: r.version, kind: r.kind, listKind: r.listKind, plural: r.resource,
    schema: r.custom?.schema as JSONSchemaProps | undefined, selectableFields: r.custom?.selectableFields,
  };
  let v2: Record<string, Json> | undefined;
  let v3: Record<string, Json> | undefined;
  return {
    key,
    paths: resourcePaths(r),
    v2Definitions: () => (v2 ??= crdDefinitions(model, true)),
    v3Definitions: () => (v3 ??= crdDefinitions(model, false)),
  };
}

/** a cache of the custom resources' OpenAPI, one entry per served group/version/resource */
export function customOpenAPICache(): { of(r: ResourceInfo): CustomOpenAPI; retain(rs: ResourceInfo[]): void } {
  const cache = new Map<string, CustomOpenAPI>();
  const id = (r: ResourceInfo) => `${r.group}/${r.version}/${r.resource}`;
  return {
    of(r) {
      const key = customOpenAPIKey(r);
      const hit = cache.get(id(r));
      if (hit?.key === key) return hit;
      const built = build(r, key);
      cache.set(id(r), built);
      return built;
    },
    // entries of resources no longer served are dropped, so deleted CRDs are not held
    retain(rs) {
      const live = new Set(rs.map(id));
      for (const k of cache.keys()) if (!live.has(k)) cache.delete(k);
    },
  };
}
