// Headers across the proxy, as Go's ReverseProxy and apimachinery's proxy transport treat them:
// hop-by-hop headers (and those a Connection header names) stay on their hop, except the
// Upgrade handshake when the request is an upgrade; the client's credentials stop at the API
// server; X-Forwarded-For and X-Forwarded-Uri tell the backend where the request came from (the
// Host is the one the client addressed, as Go passes it on); a redirect to the backend itself
// is rewritten to go through the proxy again.

import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

const hopByHop = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** headers the API server consumed (authentication, impersonation) and never passes on */
const consumed = /^(authorization|impersonate-.*)$/;

function connectionTokens(headers: IncomingHttpHeaders): string[] {
  const c = headers.connection;
  const raw = Array.isArray(c) ? c.join(',') : (c ?? '');
  return raw.split(',').map(t => t.trim().toLowerCase()).filter(Boolean);
}

/** whether the request asks to switch protocols (Connection: Upgrade with an Upgrade header) */
export function isUpgrade(headers: IncomingHttpHeaders): boolean {
  return connectionTokens(headers).includes('upgrade') && !!headers.upgrade;
}

export interface Forwarding {
  /** the client's address, appended to X-Forwarded-For */
  clientIp?: string;
  /** the API server's path up to and including `/proxy`, for X-Forwarded-Uri */
  prefix: string;
  /** the path sent to the backend */
  path: string;
}

/** the headers sent to the backend */
export function requestHeaders(incoming: IncomingHttpHeaders, fwd: Forwarding, upgrade: boolean): OutgoingHttpHeaders {
  const drop = new Set([...hopByHop, ...connectionTokens(incoming)]);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || name.startsWith(':') || drop.has(name) || consumed.test(name) || name === 'host') continue;
    out[name] = value;
  }
  // Go's ReverseProxy keeps "TE: trailers", the one value a backend needs to send trailers
  if (/\btrailers\b/i.test(String(incoming.te ?? ''))) out.te = 'trailers';
  if (upgrade) { out.connection = 'Upgrade'; out.upgrade = incoming.upgrade; }
  const host = incoming[':authority'] ?? incoming.host;
  if (host) out.host = host as string;
  if (fwd.clientIp) {
    const prior = incoming['x-forwarded-for'];
    out['x-forwarded-for'] = prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${fwd.clientIp}` : fwd.clientIp;
  }
  let uri = `${fwd.prefix.replace(/\/$/, '')}${fwd.path}`;
  if (!uri) uri = '/';
  out['x-forwarded-uri'] = uri;
  return out;
}

/** the backend's response headers for the client: hop-by-hop ones dropped, a redirect rewritten */
export function responseHeaders(backend: IncomingHttpHeaders, rewriteLocation: (location: string) => string): OutgoingHttpHeaders {
  const drop = new Set([...hopByHop, ...connectionTokens(backend)]);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(backend)) {
    if (value === undefined || drop.has(name)) continue;
    out[name] = value;
  }
  if (typeof out.location === 'string') out.location = rewriteLocation(out.location);
  return out;
}

/**
 * A Location the backend answered, rewritten as apimachinery's proxy transport does: a path on
 * the backend itself (absolute, or a URL naming the backend or the API server) gets the proxy
 * prefix and loses the backend's origin (a URL naming the API server keeps it); anything else
 * (relative, another host) stays.
 */
export function rewriteLocation(location: string, backendHost: string, apiHost: string | undefined, prefix: string): string {
  const absolute = /^([a-z][a-z0-9+.-]*:)?\/\//i.test(location);
  let url: URL;
  try { url = new URL(location, 'http://relative.invalid'); } catch { return location; }
  // hosts compared with their ports, the scheme's default filled in
  const withPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  const names = (h: string | undefined) => h !== undefined && (h === url.host || h === withPort);
  if (absolute && !names(backendHost) && !names(apiHost)) return location;
  if (!absolute && !location.startsWith('/')) return location;
  const path = url.pathname.startsWith(prefix) ? url.pathname : `${prefix.replace(/\/$/, '')}${url.pathname}`;
  const origin = absolute && names(apiHost) ? `${url.protocol}//${url.host}` : '';
  return `${origin}${path}${url.search}${url.hash}`;
}
