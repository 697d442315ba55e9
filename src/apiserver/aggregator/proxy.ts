// A request for a remote APIService's group-version, already authenticated and authorized by
// orch, relayed to one of its Service's ready endpoints with the caller's identity in the
// front-proxy headers; the answer (watches included) streamed back as it comes. An APIService
// that is not available, or has no endpoint to send to, is kube-aggregator's plain-text 503.

import type { RequestContext } from '../context.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { CertAndKey } from '../../pki/certs.ts';
import { sendRaw } from '../respond.ts';
import { goTlsError } from '../node-tls.ts';
import { goDialError } from '../proxy/target.ts';
import { endpointUrl, pickEndpoint, readyEndpoints } from './endpoint-pick.ts';
import { readServiceState } from './service-state.ts';
import { backendRequest } from './backend-request.ts';
import { proxiedHeaders } from './identity.ts';
import type { RemoteAPIService } from './controller.ts';

// response headers that belong to one hop only
const hopHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'trailer']);

/** Go's http.Error: the text, a newline, text/plain and nosniff */
function proxyError(ctx: RequestContext, code: number, text: string): void {
  sendRaw(ctx, code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, `${text}\n`);
}

export async function proxyToExtension(ctx: RequestContext, api: RemoteAPIService, deps: { store: Registry; catalog: Catalog; client: CertAndKey }): Promise<void> {
  if (!api.available) return proxyError(ctx, 503, 'service unavailable');
  const state = await readServiceState(deps.store, deps.catalog, api.ref);
  const endpoint = state.service ? pickEndpoint(readyEndpoints(api.ref, state.service, state.endpoints, state.slices)) : undefined;
  if (!endpoint) return proxyError(ctx, 503, 'service unavailable');
  const url = endpointUrl(endpoint, ctx.incoming?.url ?? ctx.info.path);
  const headers = proxiedHeaders(ctx.headers, ctx.user!);
  const body = ctx.incoming?.body;
  await new Promise<void>(resolve => {
    const req = backendRequest(url, { method: ctx.method, headers, tls: { ref: api.ref, spec: api.spec, client: deps.client }, signal: ctx.signal }, res => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !hopHeaders.has(k)) out[k] = v;
      ctx.res.writeHead(res.statusCode ?? 502, out);
      ctx.res.flushHeaders?.();
      res.on('data', (chunk: Buffer) => ctx.res.write(chunk));
      res.on('end', () => { ctx.res.end(); resolve(); });
      res.on('error', () => { ctx.res.end(); resolve(); });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!ctx.res.headersSent) {
        const text = goTlsError(err, endpoint.host) ?? goDialError(err, `${endpoint.host}:${endpoint.port}`);
        proxyError(ctx, 503, text);
      } else ctx.res.end();
      resolve();
    });
    if (body && ctx.method !== 'GET' && ctx.method !== 'HEAD') body.pipe(req);
    else req.end();
  });
}
