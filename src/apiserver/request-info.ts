// What a request path names: group, version, namespace, resource, name, subresource and verb.

import { badRequest } from '../api/status.ts';
import { queryBool } from './query-params.ts';

export interface RequestInfo {
  isResourceRequest: boolean;
  /** the decoded path, for matching non-resource paths; unmatchable when a segment held an escaped '/' */
  path: string;
  /** 'api' (core) or 'apis' */
  prefix?: 'api' | 'apis';
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** get, list, watch, create, update, patch, delete, deletecollection */
  verb: string;
  parts: string[];
}

// namespaces/<name>/<these> are subresources of the namespace, not namespaced resources
const namespaceSubresources = new Set(['status', 'finalize']);

/**
 * The segments of a raw (still escaped) path: split first, then each decoded, so that an escaped
 * '/' or '..' stays inside its segment and never moves the request to another path. Leading and
 * trailing slashes are dropped; an empty segment inside the path stays (and names nothing).
 * A segment that is not percent-encoded UTF-8 is a 400.
 */
export function pathSegments(rawPath: string): string[] {
  const trimmed = rawPath.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return [];
  return trimmed.split('/').map(segment => {
    if (!segment.includes('%')) return segment;
    try {
      return decodeURIComponent(segment);
    } catch {
      throw badRequest(`invalid URL escape in path segment ${JSON.stringify(segment)}: not percent-encoded UTF-8`);
    }
  });
}

/** `rawPath` is the request target's path as sent, before any decoding */
export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const parts = pathSegments(rawPath);
  // a segment that held an escaped '/' matches no fixed path
  const path = parts.some(p => p.includes('/')) ? rawPath : `/${parts.join('/')}`;
  const info: RequestInfo = { isResourceRequest: false, path, group: '', version: '', resource: '', verb: method.toLowerCase(), parts };
  if (parts.includes('')) return info;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length < 3) return info;
    info.prefix = 'api';
    info.version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length < 4) return info;
    info.prefix = 'apis';
    info.group = parts[1]!;
    info.version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return info;
  }
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1];
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  if (rest.length === 0) return info;
  info.isResourceRequest = true;
  info.resource = rest[0]!;
  if (rest.length > 1) info.name = rest[1];
  if (rest.length > 2) info.subresource = rest.slice(2).join('/');
  const watching = legacyWatch || queryBool(query, 'watch') === true;
  switch (method) {
    case 'GET': case 'HEAD':
      info.verb = watching ? 'watch' : info.name !== undefined ? 'get' : 'list';
      break;
    case 'POST': info.verb = 'create'; break;
    case 'PUT': info.verb = 'update'; break;
    case 'PATCH': info.verb = 'patch'; break;
    case 'DELETE': info.verb = info.name !== undefined ? 'delete' : 'deletecollection'; break;
    default: info.verb = method.toLowerCase();
  }
  if (info.resource === 'namespaces') delete info.namespace;
  return info;
}
