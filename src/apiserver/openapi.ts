// GET /openapi/v2 (Swagger 2.0, JSON), /openapi/v3 (the index of group-version documents) and
// /openapi/v3/<api/v1 | apis/<group>/<version>> (OpenAPI 3.0). Documents are built on first
// request and kept; each carries a content hash used as ETag and as the ?hash= of the v3 index.

import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Catalog } from '../schema/types.ts';
import { allDefinitions, referencedDefinitions } from '../schema/definitions.ts';
import { apiPrefix, resourcePaths } from './openapi-paths.ts';
import { encodeOpenAPIv2 } from './openapi-v2-proto.ts';
import { openapiV3Document } from './openapi-v3.ts';
import { kubernetesVersion } from './version.ts';

type Json = Record<string, unknown>;

export interface OpenAPIResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export type OpenAPIHandler = (path: string, query: URLSearchParams, headers: IncomingHttpHeaders) => OpenAPIResponse | undefined;

interface Built { body: string | Buffer; hash: string; contentType: string }

const info = { title: 'Kubernetes', version: `v${kubernetesVersion.major}.${kubernetesVersion.minor}.${kubernetesVersion.patch}` };

/**
 * The protobuf form of /openapi/v2. client-go asks for the '@' spelling, which Go's mime parser
 * rejects in a Content-Type, so the answer carries the dotted spelling, as kube-apiserver's does.
 */
export const openapiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const openapiV2ProtobufRequestType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

function hashOf(body: string | Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

function build(doc: unknown): Built {
  const body = JSON.stringify(doc);
  return { body, hash: hashOf(body), contentType: 'application/json' };
}

function definitionsFor(paths: Record<string, Json>): Record<string, unknown> {
  const roots: string[] = [];
  JSON.stringify(paths, (k, v) => {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) roots.push(v.slice('#/definitions/'.length));
    return v;
  });
  const defs = allDefinitions();
  const out: Record<string, unknown> = {};
  for (const name of [...referencedDefinitions(roots)].sort()) out[name] = defs[name];
  return out;
}

function pathsFor(catalog: Catalog, group: string, version: string): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const r of catalog.resources(group, version)) Object.assign(out, resourcePaths(r));
  return sortKeys(out);
}

function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(obj).sort()) out[k] = obj[k]!;
  return out;
}

/** 'api/v1' or 'apis/apps/v1' → group and version; undefined for anything else */
function parseGroupVersionPath(rest: string): { group: string; version: string } | undefined {
  const parts = rest.split('/');
  if (parts.length === 2 && parts[0] === 'api') return { group: '', version: parts[1]! };
  if (parts.length === 3 && parts[0] === 'apis') return { group: parts[1]!, version: parts[2]! };
  return undefined;
}

function etagMatches(headers: IncomingHttpHeaders, hash: string): boolean {
  const inm = headers['if-none-match'];
  if (!inm) return false;
  return String(inm).split(',').some(t => t.trim().replace(/^W\//, '') === `"${hash}"` || t.trim() === '*');
}

function serve(doc: Built, headers: IncomingHttpHeaders, cacheControl: string): OpenAPIResponse {
  const h: Record<string, string> = { 'Content-Type': doc.contentType, ETag: `"${doc.hash}"`, 'Cache-Control': cacheControl, Vary: 'Accept' };
  if (etagMatches(headers, doc.hash)) return { status: 304, headers: h, body: '' };
  return { status: 200, headers: h, body: doc.body };
}

function notAcceptable(accept: string, offered: string[]): OpenAPIResponse {
  return {
    status: 406,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: `only ${offered.join(', ')} can be served for this document, not ${accept}\n`,
  };
}

/** the first of `offered` the Accept header allows, by quality then order; the first offer when absent */
function negotiate(accept: string | undefined, offered: string[]): string | undefined {
  if (!accept) return offered[0];
  const entries = accept.split(',').map((part, index) => {
    const [type = '', ...params] = part.split(';').map(s => s.trim().toLowerCase());
    const q = params.find(p => p.startsWith('q='));
    return { type, q: q ? Number(q.slice(2)) : 1, index };
  }).filter(e => e.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  for (const e of entries) {
    if (e.type === '*/*' || e.type === 'application/*') return offered[0];
    const hit = offered.find(o => o.toLowerCase() === e.type);
    if (hit) return hit;
  }
  return undefined;
}

export function openapiHandler(catalog: Catalog): OpenAPIHandler {
  let v2: Json | undefined;
  let v2Json: Built | undefined;
  let v2Proto: Built | undefined;
  const v3 = new Map<string, Built>();
  let v3Index: Built | undefined;

  const v2Doc = (): Json => {
    if (v2) return v2;
    const paths: Record<string, Json> = {};
    for (const g of catalog.groups()) for (const v of g.versions) Object.assign(paths, pathsFor(catalog, g.name, v));
    const sorted = sortKeys(paths);
    v2 = {
      swagger: '2.0',
      info,
      paths: sorted,
      definitions: definitionsFor(sorted),
      securityDefinitions: { BearerToken: { in: 'header', name: 'authorization', type: 'apiKey' } },
      security: [{ BearerToken: [] }],
    };
    return v2;
  };
  const v2Built = (type: string): Built => {
    if (type === 'application/json') return (v2Json ??= build(v2Doc()));
    if (!v2Proto) {
      const body = encodeOpenAPIv2(v2Doc());
      v2Proto = { body, hash: hashOf(body), contentType: openapiV2ProtobufType };
    }
    return v2Proto;
  };

  const gvKey = (group: string, version: string) => apiPrefix(group, version).slice(1);

  const v3Doc = (group: string, version: string): Built | undefined => {
    const key = gvKey(group, version);
    const cached = v3.get(key);
    if (cached) return cached;
    if (catalog.resources(group, version).length === 0) return undefined;
    const paths = pathsFor(catalog, group, version);
    const doc = build(openapiV3Document(info, paths, definitionsFor(paths)));
    v3.set(key, doc);
    return doc;
  };

  const indexDoc = (): Built => {
    if (v3Index) return v3Index;
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const g of catalog.groups()) {
      for (const v of g.versions) {
        const key = gvKey(g.name, v);
        paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${v3Doc(g.name, v)!.hash}` };
      }
    }
    v3Index = build({ paths });
    return v3Index;
  };

  return (rawPath, query, headers) => {
    const path = rawPath.replace(/\/+$/, '');
    const accept = headers.accept === undefined ? undefined : String(headers.accept);
    if (path === '/openapi/v2') {
      const offered = ['application/json', openapiV2ProtobufType, openapiV2ProtobufRequestType];
      const type = negotiate(accept, offered);
      if (!type) return notAcceptable(accept ?? '', offered);
      return serve(v2Built(type === 'application/json' ? type : openapiV2ProtobufType), headers, 'no-cache, private');
    }
    if (path === '/openapi/v3') return serve(indexDoc(), headers, 'no-cache, private');
    if (!path.startsWith('/openapi/v3/')) return undefined;
    const gv = parseGroupVersionPath(path.slice('/openapi/v3/'.length));
    if (!gv) return undefined;
    const doc = v3Doc(gv.group, gv.version);
    if (!doc) return undefined;
    const wanted = query.get('hash');
    if (wanted && wanted !== doc.hash) {
      // an old hash: send the client to the current document, as Kubernetes does
      const location = `${path}?hash=${doc.hash}`;
      return { status: 301, headers: { Location: location, 'Content-Type': 'text/plain; charset=utf-8' }, body: `Moved Permanently: ${location}\n` };
    }
    if (!negotiate(accept, ['application/json'])) return notAcceptable(accept ?? '', ['application/json']);
    // a hashed URL names immutable content
    return serve(doc, headers, wanted ? 'public, immutable, max-age=31536000' : 'no-cache, private');
  };
}
