// kube-aggregator's part of the API server: the local APIServices, the front-proxy identity, the
// availability controller, the routing of a remote group-version's requests and the merged
// discovery. server.ts asks `serve` first for every authorized request.

import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { RequestContext } from '../context.ts';
import { AvailabilityController } from './controller.ts';
import { withRemoteApis } from './discovery-catalog.ts';
import type { FrontProxyPki } from './front-proxy.ts';
import { proxyToExtension } from './proxy.ts';
import { RemoteOpenAPISpecs } from './remote-openapi.ts';
import type { RemoteOpenAPI } from '../openapi-documents.ts';

export interface Aggregator {
  /** true when the request was a remote APIService's and has been answered */
  serve(ctx: RequestContext): Promise<boolean>;
  /** the catalog discovery documents are made from */
  discoveryCatalog: Catalog;
  /** the available extensions' OpenAPI documents, for the served OpenAPI */
  openapi: RemoteOpenAPI;
  start(): void;
  stop(): Promise<void>;
}

/** the group and version of /apis/<group>/<version>[/...] (or /api/<version>/...), if the path is one */
export function groupVersionOf(path: string): { group: string; version: string } | undefined {
  const parts = path.split('/');
  if (parts[1] === 'apis' && parts[2] && parts[3]) return { group: parts[2], version: parts[3] };
  if (parts[1] === 'api' && parts[2]) return { group: '', version: parts[2] };
  return undefined;
}

export function createAggregator(o: { store: Registry; catalog: Catalog; frontProxy: FrontProxyPki; log: Logger; tickMs?: number; recheckMs?: number }): Aggregator {
  const controller = new AvailabilityController({ store: o.store, catalog: o.catalog, frontProxy: o.frontProxy, log: o.log, tickMs: o.tickMs, recheckMs: o.recheckMs });
  const openapi = new RemoteOpenAPISpecs({ store: o.store, catalog: o.catalog, client: o.frontProxy.client, log: o.log });
  // the documents follow the controller's view of the APIServices, on a loop of their own so a slow download never holds a check
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  const refresh = () => {
    refreshing = openapi.refresh(controller.remote.values()).catch(err => o.log.warn('apiservice openapi refresh failed', { err: String(err) }))
      .finally(() => { if (timer !== undefined) timer = setTimeout(refresh, o.tickMs ?? 1000); });
  };
  return {
    async serve(ctx) {
      if (controller.remote.size === 0) return false;
      const gv = groupVersionOf(ctx.info.path);
      const api = gv && controller.remote.get(`${gv.group}/${gv.version}`);
      if (!api) return false;
      await proxyToExtension(ctx, api, { store: o.store, catalog: o.catalog, client: o.frontProxy.client });
      return true;
    },
    discoveryCatalog: withRemoteApis(o.catalog, () => controller.remote.values()),
    openapi,
    start: () => { controller.start(); timer = setTimeout(refresh, o.tickMs ?? 1000); },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await Promise.all([controller.stop(), refreshing]);
    },
  };
}
