// GET /openapi/v2 (Swagger 2.0, JSON or protobuf), /openapi/v3 (the index of group-version
// documents) and /openapi/v3/<api/v1 | apis/<group>/<version>> (OpenAPI 3.0). The documents
// (openapi-documents.ts) follow the custom resources and extension API servers as they come and
// go; each carries a content hash used as ETag and as the ?hash= of the v3 index.

import type { IncomingHttpHeaders } from 'node:http';
import type { Catalog } from '../schema/types.ts';
import { openapiDocuments, openapiV2ProtobufType, type Built, type RemoteOpenAPI } from './openapi-documents.ts';

export { openapiV2ProtobufType } from './openapi-documents.ts';
export type { RemoteOpenAPI } from './openapi-documents.ts';

export interface OpenAPIResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export type OpenAPIHandler = (path: string, query: URLSearchParams, headers: IncomingHttpHeaders) => OpenAPIResponse | undefined;

/**
 * client-go asks for the protobuf form in the '@' spelling, which Go's mime parser rejects in a
 * Content-Type, so the answer carries the dotted spelling, as kube-apiserver's does.
 */
const openapiV2ProtobufRequestType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

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

export function openapiHandler(catalog: Catalog, remote?: RemoteOpenAPI): OpenAPIHandler {
  const docs = openapiDocuments(catalog, remote);
  return (rawPath, query, headers) => {
    const path = rawPath.replace(/\/+$/, '');
    const accept = headers.accept === undefined ? undefined : String(headers.accept);
    if (path === '/openapi/v2') {
      const offered = ['application/json', openapiV2ProtobufType, openapiV2ProtobufRequestType];
      const type = negotiate(accept, offered);
      if (!type) return notAcceptable(accept ?? '', offered);
      return serve(docs.v2(type === 'application/json' ? 'json' : 'protobuf'), headers, 'no-cache, private');
    }
    if (path === '/openapi/v3') return serve(docs.v3Index(), headers, 'no-cache, private');
    if (!path.startsWith('/openapi/v3/')) return undefined;
    const gv = parseGroupVersionPath(path.slice('/openapi/v3/'.length));
    if (!gv) return undefined;
    const doc = docs.v3(path.slice('/openapi/v3/'.length));
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
