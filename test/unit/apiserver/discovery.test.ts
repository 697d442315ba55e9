import { test } from 'node:test';
import { goJsonBody } from '../../../src/codec/go-json.ts';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { aggregated, aggregatedContentType, coreVersions, group, groupList, resourceList, storageVersionHash, wantsAggregated } from '../../../src/apiserver/discovery.ts';

const catalog = createCatalog();
type Json = Record<string, any>;

test('GET /api lists v1 and the server address', () => {
  assert.deepEqual(coreVersions('10.0.0.1:6443'), { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }] });
  assert.deepEqual(coreVersions().serverAddressByClientCIDRs, []);
});

test('GET /apis lists named groups only, in discovery order', () => {
  const list = groupList(catalog) as Json;
  assert.equal(list.kind, 'APIGroupList');
  assert.equal(list.apiVersion, 'v1');
  assert.equal(list.groups[0].name, 'apiregistration.k8s.io');
  assert.ok(!list.groups.some((g: Json) => g.name === ''));
  const autoscaling = list.groups.find((g: Json) => g.name === 'autoscaling');
  assert.deepEqual(autoscaling, {
    name: 'autoscaling',
    versions: [{ groupVersion: 'autoscaling/v2', version: 'v2' }, { groupVersion: 'autoscaling/v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
  });
});

test('GET /apis/<group>', () => {
  assert.deepEqual(group(catalog, 'apps'), {
    kind: 'APIGroup', apiVersion: 'v1', name: 'apps',
    versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
  });
  assert.equal(group(catalog, 'nosuch.example.com'), undefined);
  assert.equal(group(catalog, ''), undefined);
});

test('GET /api/v1 lists resources and subresources by name', () => {
  const list = resourceList(catalog, '', 'v1') as Json;
  assert.equal(list.kind, 'APIResourceList');
  assert.equal(list.groupVersion, 'v1');
  const names: string[] = list.resources.map((r: Json) => r.name);
  assert.deepEqual(names, [...names].sort());
  const byName = new Map<string, Json>(list.resources.map((r: Json) => [r.name, r]));
  assert.deepEqual(byName.get('pods'), {
    name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=',
  });
  // exactly the subresources this server implements: those of the registry's table
  assert.deepEqual([...byName.keys()].filter(n => n.startsWith('pods/')), ['pods/attach', 'pods/binding', 'pods/ephemeralcontainers', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/proxy', 'pods/resize', 'pods/status']);
  assert.deepEqual(byName.get('namespaces/finalize'), { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] });
  assert.deepEqual(byName.get('replicationcontrollers/scale'), { name: 'replicationcontrollers/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  assert.deepEqual(byName.get('pods/exec'), { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] });
  assert.deepEqual(byName.get('pods/eviction'), { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  assert.deepEqual(byName.get('nodes/proxy'), { name: 'nodes/proxy', singularName: '', namespaced: false, kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  assert.deepEqual(byName.get('pods/status'), { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  assert.equal(byName.get('namespaces')!.namespaced, false);
  assert.equal(byName.get('nodes')!.namespaced, false);
  assert.deepEqual(byName.get('nodes')!.shortNames, ['no']);
  // virtual resources have no storage and so no hash
  assert.equal(byName.get('bindings')!.storageVersionHash, undefined);
  assert.equal(byName.get('componentstatuses')!.storageVersionHash, undefined);
  assert.equal(resourceList(catalog, 'apps', 'v1beta1'), undefined);
});

test('GET /apis/apps/v1: deployments/scale answers in autoscaling/v1', () => {
  const list = resourceList(catalog, 'apps', 'v1') as Json;
  const scale = list.resources.find((r: Json) => r.name === 'deployments/scale');
  assert.deepEqual(scale, { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  const d = list.resources.find((r: Json) => r.name === 'deployments');
  assert.equal(d.storageVersionHash, storageVersionHash('apps', 'v1', 'Deployment'));
  assert.equal(d.storageVersionHash, '8aSe+NMegvE=');
});

test('aggregated discovery for /api and /apis', () => {
  const legacy = aggregated(catalog, 'legacy', 'v2') as Json;
  assert.equal(legacy.kind, 'APIGroupDiscoveryList');
  assert.equal(legacy.apiVersion, 'apidiscovery.k8s.io/v2');
  assert.equal(legacy.items.length, 1);
  assert.deepEqual(legacy.items[0].metadata, {}, 'no creationTimestamp: null since Kubernetes 1.33');
  // written in the Go structs' order (the OpenAPI document has no definition of these types)
  assert.ok(goJsonBody(legacy).startsWith('{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{},"versions":[{"version":"v1","resources":[{"resource":"bindings","responseKind":{"group":"","version":"","kind":"Binding"},"scope":"Namespaced","singularResource":"binding","verbs":["create"]},'), goJsonBody(legacy).slice(0, 300));
  const v1 = legacy.items[0].versions[0];
  assert.equal(v1.version, 'v1');
  assert.equal(v1.freshness, 'Current');
  const pods = v1.resources.find((r: Json) => r.resource === 'pods');
  assert.equal(pods.scope, 'Namespaced');
  assert.equal(pods.singularResource, 'pod');
  assert.deepEqual(pods.responseKind, { group: '', version: '', kind: 'Pod' });
  assert.deepEqual(pods.shortNames, ['po']);
  assert.deepEqual(pods.subresources, [
    { subresource: 'attach', responseKind: { group: '', version: '', kind: 'PodAttachOptions' }, verbs: ['create', 'get'] },
    { subresource: 'binding', responseKind: { group: '', version: '', kind: 'Binding' }, verbs: ['create'] },
    { subresource: 'ephemeralcontainers', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
    { subresource: 'exec', responseKind: { group: '', version: '', kind: 'PodExecOptions' }, verbs: ['create', 'get'] },
    { subresource: 'log', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get'] },
    { subresource: 'portforward', responseKind: { group: '', version: '', kind: 'PodPortForwardOptions' }, verbs: ['create', 'get'] },
    { subresource: 'proxy', responseKind: { group: '', version: '', kind: 'PodProxyOptions' }, verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    { subresource: 'resize', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
  ]);
  assert.equal(v1.resources.find((r: Json) => r.resource === 'nodes').scope, 'Cluster');

  const apis = aggregated(catalog, 'apis', 'v2beta1') as Json;
  assert.equal(apis.apiVersion, 'apidiscovery.k8s.io/v2beta1');
  assert.equal(apis.items[0].metadata.name, 'apiregistration.k8s.io');
  const apps = apis.items.find((i: Json) => i.metadata.name === 'apps');
  const deployments = apps.versions[0].resources.find((r: Json) => r.resource === 'deployments');
  assert.deepEqual(deployments.subresources.find((s: Json) => s.subresource === 'scale').responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  assert.deepEqual(deployments.categories, ['all']);
  const autoscaling = apis.items.find((i: Json) => i.metadata.name === 'autoscaling');
  assert.deepEqual(autoscaling.versions.map((v: Json) => v.version), ['v2', 'v1']);
});

test('wantsAggregated reads the Accept header the way kubectl sends it', () => {
  const kubectl130 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  const kubectl127 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  assert.equal(wantsAggregated(kubectl130), 'v2');
  assert.equal(wantsAggregated(kubectl127), 'v2beta1');
  assert.equal(wantsAggregated('application/json, */*'), undefined);
  assert.equal(wantsAggregated(''), undefined);
  assert.equal(wantsAggregated('application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), undefined);
  assert.equal(wantsAggregated('application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'v2');
  assert.equal(wantsAggregated('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json'), undefined);
  assert.equal(wantsAggregated('application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'v2');
  assert.equal(aggregatedContentType('v2'), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
});
