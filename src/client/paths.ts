// API paths and query strings.

export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** the API path of a collection, an object or a subresource: core under /api/v1, others under /apis/g/v */
export function resourcePath(r: ResourceRef): string {
  let p = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  if (r.namespace) p += `/namespaces/${encodeURIComponent(r.namespace)}`;
  p += `/${r.resource}`;
  if (r.name) p += `/${encodeURIComponent(r.name)}`;
  if (r.subresource) p += `/${r.subresource}`;
  return p;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/** path with the query's defined values appended (after any query the path already has) */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) q.append(k, String(v));
  const s = q.toString();
  if (!s) return path;
  return path + (path.includes('?') ? '&' : '?') + s;
}
