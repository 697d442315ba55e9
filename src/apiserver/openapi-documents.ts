// The served OpenAPI documents and their content hashes, kept until what they are made of
// changes: the built-in resources (fixed), the custom resources of established CRDs (one cached
// part per CRD version, openapi-custom.ts) and the documents downloaded from available extension
// API servers (aggregator/remote-openapi.ts). Each document is remade only when the key of its
// parts moved, on the next request for it.

import { createHash } from 'node:crypto';
import type { Catalog, ResourceInfo } from '../schema/types.ts';
import { allDefinitions, referencedDefinitions } from '../schema/definitions.ts';
import { apiPrefix, resourcePaths } from './openapi-paths.ts';
import { encodeOpenAPIv2 } from './openapi-v2-proto.ts';
import { openapiV3Document } from './openapi-v3.ts';
import { customOpenAPICache, type CustomOpenAPI } from './openapi-custom.ts';
import { mergeSwagger } from './openapi-merge.ts';
import { kubernetesVersion } from './version.ts';

type Json = Record<string, unknown>;

export interface Built { body: string | Buffer; hash: string; contentType: string }

/** what the aggregator downloaded from extension API servers */
export interface RemoteOpenAPI {
  /** moves whenever any downloaded document is added, changed or dropped */
  generation(): number;
  /** the /openapi/v2 documents, in APIService priority order */
  v2Documents(): Json[];
  /** the OpenAPI v3 document of a remote group-version, keyed 'apis/<group>/<version>' */
  v3Document(path: string): { body: string } | undefined;
  /** the 'apis/<group>/<version>' paths that have a downloaded v3 document */
  v3Paths(): string[];
}

/** the protobuf form of /openapi/v2 as kube-apiserver labels it */
export const openapiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const info = { title: 'Kubernetes', version: `v${kubernetesVersion.major}.${kubernetesVersion.minor}.${kubernetesVersion.patch}` };

export function hashOf(body: string | Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

function built(body: string | Buffer, contentType = 'application/json'): Built {
  return { body, hash: hashOf(body), contentType };
}

function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(obj).sort()) out[k] = obj[k]!;
  return out;
}

/** the built-in definitions the given nodes refer to, directly or through other definitions */
function builtInDefinitionsFor(...nodes: unknown[]): Record<string, unknown> {
  const roots: string[] = [];
  JSON.stringify(nodes, (k, v) => {
    if (k === '$ref' && typeof v === 'string') {
      const m = /^#\/(?:definitions|components\/schemas)\/(.+)$/.exec(v);
      if (m) roots.push(m[1]!);
    }
    return v;
  });
  const defs = allDefinitions();
  const out: Record<string, unknown> = {};
  for (const name of referencedDefinitions(roots)) out[name] = defs[name];
  return out;
}

/** 'apis/<group>/<version>' or 'api/v1' */
export const gvPath = (group: string, version: string) => apiPrefix(group, version).slice(1);

export interface OpenAPIDocuments {
  v2(type: 'json' | 'protobuf'): Built;
  /** the document of 'api/v1' or 'apis/<group>/<version>', if anything is served there */
  v3(path: string): Built | undefined;
  v3Index(): Built;
}

export function openapiDocuments(catalog: Catalog, remote?: RemoteOpenAPI): OpenAPIDocuments {
  const customs = customOpenAPICache();
  let builtInV2: Record<string, Json> | undefined;
  let builtInV2Definitions: Record<string, unknown> | undefined;
  let v2: { key: string; json?: Built; proto?: Built; doc: Json } | undefined;
  const v3 = new Map<string, { key: string; doc: Built }>();
  let index: Built | undefined;

  const customParts = (): CustomOpenAPI[] => {
    const rs = catalog.groups().flatMap(g => g.versions.flatMap(v => catalog.resources(g.name, v))).filter(r => r.custom);
    customs.retain(rs);
    return rs.map(r => customs.of(r));
  };
  const builtInPaths = (): Record<string, Json> => {
    if (builtInV2) return builtInV2;
    const paths: Record<string, Json> = {};
    for (const g of catalog.groups()) for (const v of g.versions) for (const r of catalog.resources(g.name, v)) if (!r.custom) Object.assign(paths, resourcePaths(r));
    return (builtInV2 = paths);
  };

  const v2Doc = (): { key: string; json?: Built; proto?: Built; doc: Json } => {
    const parts = customParts();
    const key = `${parts.map(p => p.key).join('\n')}#${remote?.generation() ?? 0}`;
    if (v2?.key === key) return v2;
    // the static document wins over custom resources, as apiextensions-apiserver merges them
    const paths: Record<string, unknown> = { ...builtInPaths() };
    const customPaths: Record<string, unknown> = {};
    const customDefs: Record<string, unknown> = {};
    for (const p of parts) {
      for (const [path, item] of Object.entries(p.paths)) if (!(path in paths)) paths[path] = customPaths[path] = item;
      Object.assign(customDefs, p.v2Definitions());
    }
    // the built-in paths' definitions are found once; only the custom parts are walked again
    builtInV2Definitions ??= builtInDefinitionsFor(builtInPaths());
    const definitions = { ...customDefs, ...builtInV2Definitions, ...builtInDefinitionsFor(customPaths, customDefs) };
    const merged = { paths, definitions };
    for (const doc of remote?.v2Documents() ?? []) mergeSwagger(merged, doc);
    const doc: Json = {
      swagger: '2.0',
      info,
      paths: sortKeys(merged.paths),
      definitions: sortKeys(merged.definitions),
      securityDefinitions: { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } },
      security: [{ BearerToken: [] }],
    };
    return (v2 = { key, doc });
  };

  const v3Key = (resources: ResourceInfo[]) => resources.filter(r => r.custom).map(r => customs.of(r).key).join('\n');

  const v3Local = (group: string, version: string): Built | undefined => {
    const resources = catalog.resources(group, version);
    if (resources.length === 0) return undefined;
    const path = gvPath(group, version);
    const key = v3Key(resources);
    const hit = v3.get(path);
    if (hit?.key === key) return hit.doc;
    const paths: Record<string, Json> = {};
    const customSchemas: Record<string, unknown> = {};
    for (const r of resources) {
      if (!r.custom) { Object.assign(paths, resourcePaths(r)); continue; }
      const part = customs.of(r);
      Object.assign(paths, part.paths);
      Object.assign(customSchemas, part.v3Definitions());
    }
    const sorted = sortKeys(paths);
    const doc = built(JSON.stringify(openapiV3Document(info, sorted, builtInDefinitionsFor(sorted, customSchemas), customSchemas)));
    v3.set(path, { key, doc });
    return doc;
  };

  const v3Remote = (path: string): Built | undefined => {
    const r = remote?.v3Document(path);
    if (!r) return undefined;
    const hit = v3.get(path);
    if (hit?.key === 'remote' && hit.doc.body === r.body) return hit.doc;
    const doc = built(r.body);
    v3.set(path, { key: 'remote', doc });
    return doc;
  };

  const localPaths = (): Array<{ path: string; group: string; version: string }> =>
    catalog.groups().flatMap(g => g.versions.map(v => ({ path: gvPath(g.name, v), group: g.name, version: v })));

  return {
    v2(type) {
      const d = v2Doc();
      if (type === 'json') return (d.json ??= built(JSON.stringify(d.doc)));
      return (d.proto ??= built(encodeOpenAPIv2(d.doc), openapiV2ProtobufType));
    },
    v3(path) {
      // an APIService backed by an extension serves its group-version, not the local server
      const fromRemote = v3Remote(path);
      if (fromRemote) return fromRemote;
      const gv = localPaths().find(p => p.path === path);
      return gv ? v3Local(gv.group, gv.version) : undefined;
    },
    v3Index() {
      const entries = new Map<string, string>();
      for (const p of localPaths()) entries.set(p.path, '');
      for (const p of remote?.v3Paths() ?? []) entries.set(p, '');
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const p of entries.keys()) {
        const doc = this.v3(p);
        if (doc) paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${doc.hash}` };
      }
      const body = JSON.stringify({ paths });
      if (index?.body !== body) index = built(body);
      return index;
    },
  };
}
