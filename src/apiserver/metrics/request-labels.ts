// The labels kube-apiserver's request metrics give a request (endpoints/metrics in
// k8s.io/apiserver): the reported verb, the scope, the dry_run value, and which requests are
// long-running or mutating for the in-flight gauge. Pure: the request's info in, strings out.

import type { RequestInfo } from '../request-info.ts';

/** scope as CleanScope reports it: a named object or a create, a namespace, a cluster, or none (non-resource) */
export function requestScope(info: RequestInfo): '' | 'resource' | 'namespace' | 'cluster' {
  if (info.name !== undefined || (info.isResourceRequest && info.verb === 'create')) return 'resource';
  if (info.namespace !== undefined) return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

// connect subresources are reported as CONNECT whatever the method (validConnectRequests)
const connectSubresources = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const reportedVerbs = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
const applyPatchType = 'application/apply-patch+yaml';

/** the first segment of a subresource path (`proxy/some/path` is the proxy subresource) */
export function subresourceName(info: RequestInfo): string {
  const s = info.subresource;
  if (!s) return '';
  const slash = s.indexOf('/');
  return slash < 0 ? s : s.slice(0, slash);
}

/**
 * The verb kube-apiserver's metrics report: the HTTP method, GET (and HEAD) of a collection as
 * LIST, a watch as WATCH, an apply patch as APPLY, a connect subresource as CONNECT; unknown
 * methods as `other`. A collection DELETE stays DELETE, as the method is what is reported.
 */
export function reportedVerb(method: string, info: RequestInfo, contentType: string | undefined): string {
  if (info.verb === 'watch') return 'WATCH';
  // HTTP methods arrive in upper case; anything else is folded as Go's ToUpper would
  let verb = /[a-z]/.test(method) ? method.toUpperCase() : method;
  if (verb === 'GET' || verb === 'HEAD') {
    const scope = requestScope(info);
    verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  }
  if (verb === 'PATCH' && contentType === applyPatchType) verb = 'APPLY';
  if (info.isResourceRequest && connectSubresources.has(subresourceName(info))) verb = 'CONNECT';
  return reportedVerbs.has(verb) ? verb : 'other';
}

/** the dry_run label: empty without the parameter, `invalid` for anything but All, else the values sorted and unique */
export function dryRunLabel(query: URLSearchParams): string {
  if (!query.has('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.some(v => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

// BasicLongRunningRequestCheck of kube-apiserver: these never count as in flight
const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const readOnlyVerbs = new Set(['get', 'list', 'watch']);

/** the request_kind a request counts under while in flight, or undefined for long-running requests */
export function inflightKind(info: RequestInfo): 'readOnly' | 'mutating' | undefined {
  if (longRunningVerbs.has(info.verb)) return undefined;
  if (info.isResourceRequest && longRunningSubresources.has(subresourceName(info))) return undefined;
  return readOnlyVerbs.has(info.verb) ? 'readOnly' : 'mutating';
}

/** the non-resource paths kube-apiserver instruments, with the subresource and component labels they get */
export function nonResourceLabels(path: string): { subresource: string; component: string } | undefined {
  switch (path) {
    case '/healthz': case '/livez': case '/readyz': return { subresource: path, component: '' };
    case '/api': case '/apis': return { subresource: path, component: 'apiserver' };
    case '/openapi/v3': return { subresource: 'openapi/v3', component: '' };
  }
  if (path.startsWith('/openapi/v3/')) return { subresource: 'openapi/v3/', component: '' };
  return undefined;
}
