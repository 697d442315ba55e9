// Where a proxied request goes, as kube-apiserver builds it: the path after `/proxy` (decoded,
// cleaned as Go's path.Join cleans it, the trailing slash kept, escaped again as Go escapes a
// URL path) on the backend's location, and the query passed through verbatim. Also the words
// Go's dialer uses for a failed connection, which clients print and some scripts match.

/** Go's path.Clean of an absolute path: no `.`, `..` resolved, slashes collapsed */
export function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

const unescapedInPath = /[A-Za-z0-9\-_.~$&+,/:;=@]/;

/** a decoded path escaped as Go's url.URL writes Path (encodePath mode) */
export function escapePath(p: string): string {
  let out = '';
  for (const ch of p) {
    if (unescapedInPath.test(ch)) { out += ch; continue; }
    for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The path sent to the backend: `segments` are the decoded path segments after `proxy`;
 * `trailingSlash` whether the request's path ended with one. No segments: the path is empty
 * (the backend sees `/`), or `/` when the request asked for the root with a slash.
 */
export function proxiedPath(segments: string[], trailingSlash: boolean): string {
  if (!segments.length) return trailingSlash ? '/' : '';
  let p = cleanPath(`/${segments.join('/')}`);
  if (trailingSlash && !p.endsWith('/')) p += '/';
  return escapePath(p);
}

/** the request target's path and raw query (an absolute-form target loses its scheme and host) */
export function splitRequestTarget(target: string): { path: string; rawQuery: string } {
  const t = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const q = t.indexOf('?');
  return q < 0 ? { path: t, rawQuery: '' } : { path: t.slice(0, q), rawQuery: t.slice(q + 1) };
}

export interface Backend { scheme: 'http' | 'https'; host: string; port?: string }

/** `host:port` as Go joins them (IPv6 in brackets) */
export function joinHostPort(host: string, port: string | undefined): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return port ? `${h}:${port}` : h;
}

export function backendUrl(b: Backend, path: string, rawQuery: string): string {
  return `${b.scheme}://${joinHostPort(b.host, b.port)}${path || '/'}${rawQuery ? `?${rawQuery}` : ''}`;
}

const goErrno: Record<string, string> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ETIMEDOUT: 'i/o timeout',
  ECONNRESET: 'read: connection reset by peer',
};

/** a failed dial or exchange as Go's net package words it: `dial tcp 10.0.0.5:80: connect: connection refused` */
export function goDialError(err: NodeJS.ErrnoException, hostPort: string): string {
  const words = err.code ? goErrno[err.code] : undefined;
  if (!words) return err.message;
  return err.code === 'ECONNRESET' ? `read tcp ${hostPort}: ${words}` : `dial tcp ${hostPort}: ${words}`;
}
