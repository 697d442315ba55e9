// A request to a proxy subresource (pods, services, nodes): every method kube-apiserver proxies,
// the backend found by the subresource's module, the path after `/proxy` (or the `path`
// option) and the query passed on, and the exchange relayed — upgrades included.

import { internalError, methodNotAllowed } from '../../api/status.ts';
import type { Subresource } from '../../registry/subresources/subresource.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from '../handlers/deps.ts';
import { subresourceCall } from '../handlers/subresource.ts';
import { backendUrl, joinHostPort, proxiedPath, splitRequestTarget } from './target.ts';
import { isUpgrade, requestHeaders, rewriteLocation } from './headers.ts';
import { relay } from './relay.ts';
import { admitConnect } from '../handlers/admit-now.ts';

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export async function handleProxy(ctx: RequestContext, deps: HandlerDeps, sub: Subresource): Promise<void> {
  if (!methods.has(ctx.method)) throw methodNotAllowed();
  const incoming = ctx.incoming;
  if (!incoming) throw internalError(new Error('the request cannot be relayed'));
  await admitConnect(ctx, deps, ctx.info.subresource!.split('/').slice(1).join('/'));
  const loc = await sub.proxyLocation!(subresourceCall(ctx, deps));
  if (loc.nodeAgent && !deps.nodeClientTls) throw internalError(new Error('no client certificate for node agents'));

  const { path: rawPath, rawQuery } = splitRequestTarget(incoming.url);
  let segments = ctx.info.subresource!.split('/').slice(1);
  let trailingSlash = rawPath.endsWith('/');
  const prefix = `/${ctx.info.parts.slice(0, ctx.info.parts.length - segments.length).join('/')}`;
  // without a path after /proxy, the `path` option (Pod/Service/NodeProxyOptions.path) names one
  const option = ctx.query.get('path');
  if (!segments.length && option) {
    segments = option.split('/').filter(s => s !== '');
    trailingSlash = option.endsWith('/');
  }
  const path = proxiedPath(segments, trailingSlash);
  const upgrade = isUpgrade(ctx.headers) ? incoming.upgrade : undefined;
  const dialed = joinHostPort(loc.host, loc.port ?? (loc.scheme === 'https' ? '443' : '80'));
  const apiHost = String(ctx.headers[':authority'] ?? ctx.headers.host ?? '');
  await relay(ctx, {
    method: ctx.method,
    url: backendUrl(loc, path, rawQuery),
    headers: requestHeaders(ctx.headers, { clientIp: incoming.remoteAddress, prefix, path: path || '/' }, !!upgrade),
    body: incoming.body,
    dialed,
    clientTls: loc.nodeAgent ? deps.nodeClientTls : undefined,
    upgrade,
    rewriteLocation: l => rewriteLocation(l, dialed, apiHost || undefined, prefix),
  });
}
