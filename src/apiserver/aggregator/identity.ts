// The front-proxy identity an extension API server trusts: the user orch authenticated and
// authorized, in the request headers (--requestheader-username-headers and friends), sent over a
// connection authenticated by the front-proxy client certificate. The client's own credentials and
// any identity headers it sent itself are never passed on.

import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { User } from '../user.ts';

export const userHeader = 'X-Remote-User';
export const groupHeader = 'X-Remote-Group';
export const extraHeaderPrefix = 'X-Remote-Extra-';

// hop-by-hop headers, and HTTP/2 pseudo-headers that an HTTP/1.1 request cannot carry
const dropped = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'http2-settings', 'authorization', 'proxy-authorization']);

function isIdentityHeader(name: string): boolean {
  return name.startsWith('x-remote-') || name.startsWith('impersonate-');
}

/** an extra key as a header name: percent-encoded, as Kubernetes escapes it (the key may hold '/') */
export function extraHeaderName(key: string): string {
  return extraHeaderPrefix + encodeURIComponent(key).replace(/[!'()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function proxiedHeaders(incoming: IncomingHttpHeaders, user: User): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    const n = name.toLowerCase();
    if (n.startsWith(':') || dropped.has(n) || isIdentityHeader(n) || value === undefined) continue;
    out[name] = value;
  }
  out[userHeader] = user.name;
  if (user.groups.length) out[groupHeader] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) if (values.length) out[extraHeaderName(key)] = [...values];
  return out;
}
