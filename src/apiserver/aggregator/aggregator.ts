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

export interface Aggregator {
  /** true when the request was a remote APIService's and has been answered */
  serve(ctx: RequestContext): Promise<boolean>;
  /** the catalog discovery documents are made from */
  discoveryCatalog: Catalog;
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
    start: () => controller.start(),
    stop: () => controller.stop(),
  };
}
