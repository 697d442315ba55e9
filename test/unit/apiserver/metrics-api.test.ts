// metrics.k8s.io/v1beta1 served from node Summaries: discovery lists the group, NodeMetrics
// and PodMetrics are built from the agent's figures with metrics-server's quantities, label and
// field selectors pick the objects, and what has no figures is left out or NotFound.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { aggregated, group, groupList, resourceList } from '../../../src/apiserver/discovery.ts';
import { withMetricsApi } from '../../../src/apiserver/metrics-api/catalog.ts';
import { memoryQuantity } from '../../../src/apiserver/metrics-api/objects.ts';
import { cachedFetcher, type ScrapedSummary } from '../../../src/apiserver/metrics-api/scrape.ts';
import { testApi } from '../support/fake-request.ts';

type Json = Record<string, any>;

test('discovery: metrics.k8s.io/v1beta1 with nodes and pods, get and list only', () => {
  const catalog = withMetricsApi(createCatalog());
  assert.ok((groupList(catalog) as Json).groups.some((g: Json) => g.name === 'metrics.k8s.io' && g.preferredVersion.version === 'v1beta1'));
  assert.deepEqual(group(catalog, 'metrics.k8s.io'), { kind: 'APIGroup', apiVersion: 'v1', name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' } });
  const list = resourceList(catalog, 'metrics.k8s.io', 'v1beta1') as Json;
  assert.deepEqual(list.resources, [
    { name: 'nodes', singularName: 'node', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
  ]);
  const agg = aggregated(catalog, 'apis', 'v2') as Json;
  const m = agg.items.find((g: Json) => g.metadata.name === 'metrics.k8s.io');
  assert.deepEqual(m.versions[0].resources.map((r: Json) => [r.resource, r.scope, r.responseKind.kind]), [['nodes', 'Cluster', 'NodeMetrics'], ['pods', 'Namespaced', 'PodMetrics']]);
  assert.equal(resourceList(catalog, '', 'v1') !== undefined, true, 'other groups unchanged');
});

test('memory as metrics-server prints it: binary suffixes when exact', () => {
  assert.equal(memoryQuantity(52428800), '50Mi');
  assert.equal(memoryQuantity(1536), '1536');
  assert.equal(memoryQuantity(3072), '3Ki');
  assert.equal(memoryQuantity(1024 ** 3), '1Gi');
  assert.equal(memoryQuantity(1000), '1000');
  assert.equal(memoryQuantity(0), '0');
});

test('a cached fetcher scrapes a node once within its time to live', async () => {
  let calls = 0;
  let now = 0;
  const f = cachedFetcher(async () => { calls++; return { node: {}, pods: [] }; }, 3000, () => now);
  await f('a'); await f('a'); now = 2000; await f('a');
  assert.equal(calls, 1);
  now = 3500; await f('a'); await f('b');
  assert.equal(calls, 3);
});

function summary(pods: Array<[string, string, string, Array<[string, number, number]>]>, nodeCpu = 1.5e9, nodeMem = 3 * 1024 ** 3): ScrapedSummary {
  const t = '2026-11-22T10:00:00Z';
  return {
    node: { cpu: { time: t, usageNanoCores: nodeCpu }, memory: { time: t, workingSetBytes: nodeMem } },
    pods: pods.map(([namespace, name, uid, cs]) => ({ podRef: { namespace, name, uid }, containers: cs.map(([n, cpu, mem]) => ({ name: n, cpu: { time: t, usageNanoCores: cpu }, memory: { time: t, workingSetBytes: mem } })) })),
  };
}

test('NodeMetrics and PodMetrics from the nodes\' Summaries', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const scraped: string[] = [];
  const uids = new Map<string, string>();
  api.deps.metricsFetcher = async url => {
    scraped.push(url);
    if (url.includes('10.0.0.1')) return summary([['default', 'web', uids.get('web')!, [['main', 2.5e8, 50 * 1024 ** 2], ['side', 1e6, 1024 ** 2]]], ['default', 'half', uids.get('half')!, [['a', 1, 1]]]]);
    if (url.includes('10.0.0.2')) return { ...summary([['kube-system', 'dns', uids.get('dns')!, [['dns', 5e6, 20 * 1024 ** 2]]]]), node: { cpu: { time: '2026-11-22T10:00:00Z' } } } as ScrapedSummary;
    throw new Error('connection refused');
  };
  for (const [name, ip, labels] of [['n1', '10.0.0.1', { zone: 'a' }], ['n2', '10.0.0.2', { zone: 'b' }], ['n3', '10.0.0.3', { zone: 'a' }]] as const) {
    assert.equal((await api.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } } })).status, 201);
    const got = (await api.request('GET', `/api/v1/nodes/${name}`)).json();
    got.status = { addresses: [{ type: 'InternalIP', address: ip }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } };
    assert.equal((await api.request('PUT', `/api/v1/nodes/${name}/status`, { body: got })).status, 200);
  }
  for (const [ns, name, node, labels] of [['default', 'web', 'n1', { app: 'web' }], ['default', 'half', 'n1', { app: 'half' }], ['kube-system', 'dns', 'n2', { app: 'dns' }], ['default', 'pending', '', { app: 'web' }]] as const) {
    const r = await api.request('POST', `/api/v1/namespaces/${ns}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'main', image: 'busybox' }] } } });
    assert.equal(r.status, 201, r.text());
    uids.set(name, r.json().metadata.uid);
  }

  const n1 = await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes/n1');
  assert.equal(n1.status, 200, n1.text());
  const nm = n1.json();
  assert.equal(nm.kind, 'NodeMetrics');
  assert.equal(nm.apiVersion, 'metrics.k8s.io/v1beta1');
  assert.equal(nm.metadata.name, 'n1');
  assert.deepEqual(nm.metadata.labels, { zone: 'a' });
  assert.equal(nm.timestamp, '2026-11-22T10:00:00Z');
  assert.equal(nm.window, '10s');
  assert.deepEqual(nm.usage, { cpu: '1500000000n', memory: '3Gi' });
  assert.equal(scraped[0], 'https://10.0.0.1:10250/stats/summary');

  const nodes = (await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes')).json();
  assert.equal(nodes.kind, 'NodeMetricsList');
  assert.deepEqual(nodes.items.map((i: Json) => i.metadata.name), ['n1'], 'n2 has no memory figure, n3 does not answer');
  assert.deepEqual((await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes?labelSelector=zone%3Db')).json().items, []);
  const missing = await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes/n3');
  assert.equal(missing.status, 404);
  assert.equal(missing.json().message, 'nodemetrics.metrics.k8s.io "n3" not found');
  assert.equal((await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes/nosuch')).status, 404);

  const web = (await api.request('GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web')).json();
  assert.equal(web.kind, 'PodMetrics');
  assert.deepEqual(web.metadata.labels, { app: 'web' });
  assert.equal(web.metadata.namespace, 'default');
  assert.deepEqual(web.containers, [{ name: 'main', usage: { cpu: '250000000n', memory: '50Mi' } }, { name: 'side', usage: { cpu: '1000000n', memory: '1Mi' } }]);

  const all = (await api.request('GET', '/apis/metrics.k8s.io/v1beta1/pods')).json();
  assert.equal(all.kind, 'PodMetricsList');
  assert.deepEqual(all.items.map((i: Json) => `${i.metadata.namespace}/${i.metadata.name}`).sort(), ['default/half', 'default/web', 'kube-system/dns']);
  const selected = (await api.request('GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=app%3Dweb')).json();
  assert.deepEqual(selected.items.map((i: Json) => i.metadata.name), ['web'], 'the pending pod with the same label has no node');
  const byField = (await api.request('GET', '/apis/metrics.k8s.io/v1beta1/pods?fieldSelector=metadata.namespace%3Dkube-system')).json();
  assert.deepEqual(byField.items.map((i: Json) => i.metadata.name), ['dns']);
  const pending = await api.request('GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/pending');
  assert.equal(pending.status, 404);
  assert.equal(pending.json().message, 'podmetrics.metrics.k8s.io "pending" not found');
  assert.equal((await api.request('GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=a%20in')).status, 400);
  assert.equal((await api.request('DELETE', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web')).status, 405);
  assert.equal((await api.request('GET', '/apis/metrics.k8s.io/v1beta1/nosuch')).status, 404);
});
