// What a request path names: group, version, namespace, resource, name, subresource and verb.

export interface RequestInfo {
  isResourceRequest: boolean;
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

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const info: RequestInfo = { isResourceRequest: false, path, group: '', version: '', resource: '', verb: method.toLowerCase(), parts };
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
  const watchParam = query.get('watch');
  const watching = legacyWatch || watchParam === '1' || watchParam === 'true';
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
