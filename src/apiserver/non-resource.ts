// Paths that are not resources: version, health, discovery and OpenAPI documents.

import { resourceNotFound } from '../api/status.ts';
import type { Catalog } from '../schema/types.ts';
import type { RequestContext } from './context.ts';
import type { Health } from './health.ts';
import { aggregated, aggregatedContentType, coreVersions, group, groupList, resourceList, wantsAggregated } from './discovery.ts';
import { openapiHandler, type RemoteOpenAPI } from './openapi.ts';
import { withMetricsApi } from './metrics-api/catalog.ts';
import { sendJson, sendRaw, sendRawJson } from './respond.ts';
import { versionInfo } from './version.ts';
import type { OidcDiscovery } from './authn/oidc-discovery.ts';
import type { Exposition } from '../api/metrics/exposition.ts';

export interface NonResourceDeps {
  catalog: Catalog;
  /** the catalog with the extension API servers' group-versions merged in (aggregator/) */
  discoveryCatalog?: Catalog;
  health: Health;
  /** host:port clients reach this server at, for /api's serverAddressByClientCIDRs */
  serverAddress(): string;
  /** the extension API servers' OpenAPI documents, merged into the served ones (aggregator/) */
  remoteOpenAPI?: RemoteOpenAPI;
  /** service account issuer discovery (/.well-known/openid-configuration, /openid/v1/jwks) */
  oidc?: OidcDiscovery;
  /** /metrics in the Prometheus text format */
  metrics?: Exposition;
}

const openapiByCatalog = new WeakMap<Catalog, ReturnType<typeof openapiHandler>>();

export async function serveNonResource(ctx: RequestContext, deps: NonResourceDeps): Promise<void> {
  const path = ctx.info.path.replace(/\/+$/, '') || '/';
  const health = await deps.health.handle(path, ctx.query);
  if (health) return sendRaw(ctx, health.status, health.headers, health.body);
  if (path === '/version') return sendRawJson(ctx, 200, versionInfo());
  if (path === '/metrics' && deps.metrics && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
    const { contentType, body } = await deps.metrics.scrape();
    return sendRaw(ctx, 200, { 'content-type': contentType }, body);
  }
  const discovery = deps.oidc?.serve(path, deps.serverAddress());
  if (discovery) return sendRaw(ctx, 200, discovery.headers, discovery.body);
  if (path.startsWith('/openapi/')) {
    let h = openapiByCatalog.get(deps.catalog);
    if (!h) openapiByCatalog.set(deps.catalog, h = openapiHandler(deps.catalog, deps.remoteOpenAPI));
    const out = h(path, ctx.query, ctx.headers);
    if (out) return sendRaw(ctx, out.status, out.headers, out.body);
    throw resourceNotFound();
  }
  const accept = String(ctx.headers.accept ?? '');
  // discovery lists metrics.k8s.io too, which only the node agents answer
  const catalog = withMetricsApi(deps.discoveryCatalog ?? deps.catalog);
  if (path === '/api' || path === '/apis') {
    const agg = wantsAggregated(accept);
    if (agg) {
      const body = aggregated(catalog, path === '/api' ? 'legacy' : 'apis', agg);
      return sendJson(ctx, 200, body, aggregatedContentType(agg));
    }
    return sendJson(ctx, 200, path === '/api' ? coreVersions(deps.serverAddress()) : groupList(catalog));
  }
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) {
    const list = resourceList(catalog, '', parts[1]!);
    if (list) return sendJson(ctx, 200, list);
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const g = group(catalog, parts[1]!);
    if (g) return sendJson(ctx, 200, g);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const list = resourceList(catalog, parts[1]!, parts[2]!);
    if (list) return sendJson(ctx, 200, list);
  }
  throw resourceNotFound();
}
