// metrics.k8s.io/v1beta1 as discovery shows it: NodeMetrics (nodes, cluster-wide) and
// PodMetrics (pods, namespaced), read-only as metrics-server serves them. The group is not in
// the generated catalog (no object of it is ever stored), so discovery sees it through this
// wrapper and requests reach serve.ts instead of the store.

import type { Catalog, GroupInfo, ResourceInfo } from '../../schema/types.ts';

export const metricsGroup = 'metrics.k8s.io';
export const metricsVersion = 'v1beta1';

const resource = (name: string, singular: string, kind: string, namespaced: boolean): ResourceInfo => ({
  group: metricsGroup, version: metricsVersion, resource: name, singular, kind, listKind: `${kind}List`, namespaced,
  verbs: ['get', 'list'], shortNames: [], categories: [], subresources: [], definition: `io.k8s.metrics.pkg.apis.metrics.v1beta1.${kind}`, storageVersion: metricsVersion,
});

export const nodeMetricsResource = resource('nodes', 'node', 'NodeMetrics', false);
export const podMetricsResource = resource('pods', 'pod', 'PodMetrics', true);
const resources = [nodeMetricsResource, podMetricsResource];
const groupInfo: GroupInfo = { name: metricsGroup, versions: [metricsVersion], preferredVersion: metricsVersion };

const wrapped = new WeakMap<Catalog, Catalog>();

/** the catalog with the metrics group added, for discovery documents only */
export function withMetricsApi(catalog: Catalog): Catalog {
  let c = wrapped.get(catalog);
  if (c) return c;
  const mine = (g: string, v: string) => g === metricsGroup && v === metricsVersion;
  c = {

    lookup: (g, v, r) => (mine(g, v) ? resources.find(x => x.resource === r) : catalog.lookup(g, v, r)),
    groups: () => [...catalog.groups().filter(g => g.name !== metricsGroup), groupInfo],
    resources: (g, v) => (mine(g, v) ? [...resources] : catalog.resources(g, v)),
    byKind: (g, v, k) => (mine(g, v) ? resources.find(x => x.kind === k) : catalog.byKind(g, v, k)),
  };
  wrapped.set(catalog, c);
  return c;
}
