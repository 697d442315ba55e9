// GET and LIST of metrics.k8s.io/v1beta1 nodes and pods: the nodes and pods are read from the
// registry (label and field selectors apply to them, as metrics-server filters its informers'
// objects), then each node involved is scraped once for its Summary. A node or pod without
// figures is left out of a list and is a NotFound on a get, in metrics-server's words.

import { internalError, methodNotAllowed, StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { parseLabelSelector, matchesLabels } from '../../api/selectors/label.ts';
import { parseFieldSelector, matchesFields } from '../../api/selectors/field.ts';
import { rfc3339 } from '../../api/time.ts';
import { nodeAddress, type NodeParts } from '../../registry/subresources/node-agent.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from '../handlers/deps.ts';
import { sendJson } from '../respond.ts';
import { metricsGroup, metricsVersion, nodeMetricsResource, podMetricsResource } from './catalog.ts';
import { nodeMetrics, podMetrics } from './objects.ts';
import { cachedFetcher, httpsSummaryFetcher, type ScrapedSummary, type SummaryFetcher } from './scrape.ts';

const fetchers = new WeakMap<HandlerDeps, SummaryFetcher>();

/** where a node's agent serves its Summary, or undefined when the node says nothing of it */
export function summaryUrl(node: KubeObject & NodeParts): string | undefined {
  const host = nodeAddress(node);
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!host || !port) return undefined;
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}/stats/summary`;
}

function notFound(kind: 'nodemetrics' | 'podmetrics', name: string): StatusError {
  return new StatusError(404, 'NotFound', `${kind}.${metricsGroup} "${name}" not found`, { name, group: metricsGroup, kind: kind === 'nodemetrics' ? 'nodes' : 'pods' });
}

export async function serveMetrics(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const ri = ctx.info;
  const info = ri.version === metricsVersion ? [nodeMetricsResource, podMetricsResource].find(r => r.resource === ri.resource) : undefined;
  if (!info || ri.subresource) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
  if (ri.verb !== 'get' && ri.verb !== 'list') throw methodNotAllowed();
  if (!info.namespaced && ri.namespace !== undefined) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
  let fetch = deps.metricsFetcher ?? fetchers.get(deps);
  if (!fetch) {
    if (!deps.nodeClientTls) throw internalError(new Error('no client certificate for node agents'));
    fetchers.set(deps, fetch = cachedFetcher(httpsSummaryFetcher(deps.nodeClientTls)));
  }
  const now = rfc3339(deps.now().getTime());
  const nodes = deps.catalog.lookup('', 'v1', 'nodes')!;
  const scrape = async (node: KubeObject & NodeParts): Promise<ScrapedSummary | undefined> => {
    const url = summaryUrl(node);
    if (!url) return undefined;
    try { return await fetch(url); } catch (err) {
      ctx.log.warn('node metrics scrape failed', { node: node.metadata.name, err: String((err as Error).message ?? err) });
      return undefined;
    }
  };
  const labelSel = parseLabelSelector(ctx.query.get('labelSelector') ?? '');
  const fieldSel = parseFieldSelector(ctx.query.get('fieldSelector') ?? '');
  const selected = (o: KubeObject) => matchesLabels(labelSel, o.metadata.labels)
    && matchesFields(fieldSel, { 'metadata.name': o.metadata.name ?? '', 'metadata.namespace': o.metadata.namespace ?? '' });

  if (info === nodeMetricsResource) {
    if (ri.verb === 'get') {
      const node = await deps.registry.get(nodes, undefined, ri.name!).catch(err => {
        if (err instanceof StatusError && err.status.code === 404) throw notFound('nodemetrics', ri.name!);
        throw err;
      }) as KubeObject & NodeParts;
      const s = await scrape(node);
      const m = s && nodeMetrics(node, s, now);
      if (!m) throw notFound('nodemetrics', ri.name!);
      return sendJson(ctx, 200, m);
    }
    const list = (await deps.registry.list(nodes, undefined)).items.filter(selected) as Array<KubeObject & NodeParts>;
    const items = (await Promise.all(list.map(async n => { const s = await scrape(n); return s && nodeMetrics(n, s, now); }))).filter(Boolean);
    return sendJson(ctx, 200, { kind: 'NodeMetricsList', apiVersion: `${metricsGroup}/${metricsVersion}`, metadata: {}, items });
  }

  const pods = deps.catalog.lookup('', 'v1', 'pods')!;
  type PodParts = KubeObject & { spec?: { nodeName?: string }; status?: { phase?: string } };
  let list: PodParts[];
  if (ri.verb === 'get') {
    const pod = await deps.registry.get(pods, ri.namespace, ri.name!).catch(err => {
      if (err instanceof StatusError && err.status.code === 404) throw notFound('podmetrics', ri.name!);
      throw err;
    });
    list = [pod as PodParts];
  } else {
    list = ((await deps.registry.list(pods, ri.namespace)).items as PodParts[]).filter(selected);
  }
  // only pods that run somewhere can have figures
  const placed = list.filter(p => p.spec?.nodeName && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const summaries = new Map<string, Promise<ScrapedSummary | undefined>>();
  for (const name of new Set(placed.map(p => p.spec!.nodeName!))) {
    summaries.set(name, deps.registry.get(nodes, undefined, name).then(n => scrape(n as KubeObject & NodeParts), () => undefined));
  }
  const items = (await Promise.all(placed.map(async p => {
    const s = await summaries.get(p.spec!.nodeName!);
    return s && podMetrics(p, s, now);
  }))).filter(Boolean);
  if (ri.verb === 'get') {
    if (!items[0]) throw notFound('podmetrics', ri.name!);
    return sendJson(ctx, 200, items[0]);
  }
  return sendJson(ctx, 200, { kind: 'PodMetricsList', apiVersion: `${metricsGroup}/${metricsVersion}`, metadata: {}, items });
}

