import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../src/schema/catalog.ts';

const catalog = createCatalog();

test('pods are core v1, namespaced, with their subresources', () => {
  const pods = catalog.lookup('', 'v1', 'pods');
  assert.ok(pods);
  assert.equal(pods.kind, 'Pod');
  assert.equal(pods.listKind, 'PodList');
  assert.equal(pods.singular, 'pod');
  assert.equal(pods.namespaced, true);
  assert.equal(pods.definition, 'io.k8s.api.core.v1.Pod');
  assert.equal(pods.storageVersion, 'v1');
  assert.deepEqual(pods.shortNames, ['po']);
  assert.deepEqual(pods.categories, ['all']);
  assert.deepEqual(pods.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  const subs = new Map(pods.subresources.map(s => [s.name, s]));
  for (const name of ['status', 'log', 'binding', 'eviction', 'exec', 'attach', 'portforward', 'proxy', 'ephemeralcontainers', 'resize']) {
    assert.ok(subs.has(name), `pods/${name}`);
  }
  assert.deepEqual(subs.get('status')!.verbs, ['get', 'patch', 'update']);
  assert.deepEqual(subs.get('log')!.verbs, ['get']);
  assert.deepEqual(subs.get('exec')!.verbs, ['create', 'get']);
  assert.equal(subs.get('exec')!.kind, 'PodExecOptions');
  assert.deepEqual(subs.get('binding')!.verbs, ['create']);
  assert.deepEqual({ ...subs.get('eviction')! }, { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] });
});

test('deployments/scale takes a Scale from autoscaling/v1', () => {
  const d = catalog.lookup('apps', 'v1', 'deployments')!;
  assert.deepEqual(d.shortNames, ['deploy']);
  const scale = d.subresources.find(s => s.name === 'scale');
  assert.deepEqual(scale, { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
  assert.equal(catalog.byKind('apps', 'v1', 'Deployment'), d);
  assert.equal(catalog.byKind('apps', 'v1', 'Pod'), undefined);
});

test('cluster-scoped resources and virtual ones', () => {
  assert.equal(catalog.lookup('', 'v1', 'nodes')!.namespaced, false);
  assert.equal(catalog.lookup('', 'v1', 'namespaces')!.namespaced, false);
  assert.deepEqual(catalog.lookup('', 'v1', 'namespaces')!.subresources.map(s => s.name), ['finalize', 'status']);
  assert.equal(catalog.lookup('rbac.authorization.k8s.io', 'v1', 'clusterroles')!.namespaced, false);
  assert.equal(catalog.lookup('coordination.k8s.io', 'v1', 'leases')!.namespaced, true);
  assert.deepEqual(catalog.lookup('authentication.k8s.io', 'v1', 'tokenreviews')!.verbs, ['create']);
  assert.equal(catalog.lookup('', 'v1', 'nosuch'), undefined);
});

test('by default only GA versions are served', () => {
  for (const g of catalog.groups()) {
    for (const v of g.versions) assert.match(v, /^v\d+$/, `${g.name}/${v} is served by default`);
  }
  assert.equal(catalog.lookup('coordination.k8s.io', 'v1beta1', 'leasecandidates'), undefined);
  assert.deepEqual(catalog.resources('resource.k8s.io', 'v1beta1'), []);
});

test('groups come in Kubernetes discovery order with preferred versions', () => {
  const names = catalog.groups().map(g => g.name);
  assert.deepEqual(names.slice(0, 8), ['', 'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch']);
  assert.ok(names.indexOf('admissionregistration.k8s.io') < names.indexOf('apiextensions.k8s.io'));
  assert.ok(names.indexOf('flowcontrol.apiserver.k8s.io') < names.indexOf('resource.k8s.io'));
  const autoscaling = catalog.groups().find(g => g.name === 'autoscaling')!;
  assert.deepEqual(autoscaling.versions, ['v2', 'v1']);
  assert.equal(autoscaling.preferredVersion, 'v2');
  // both versions are GA: objects live in the preferred one
  assert.equal(catalog.lookup('autoscaling', 'v1', 'horizontalpodautoscalers')!.storageVersion, 'v2');
});

test('runtime-config enables a beta version', () => {
  const c = createCatalog({ runtimeConfig: 'coordination.k8s.io/v1beta1=true' });
  const lc = c.lookup('coordination.k8s.io', 'v1beta1', 'leasecandidates');
  assert.ok(lc);
  assert.equal(lc.storageVersion, 'v1beta1');
  const coordination = c.groups().find(g => g.name === 'coordination.k8s.io')!;
  assert.deepEqual(coordination.versions, ['v1', 'v1beta1']);
  assert.equal(coordination.preferredVersion, 'v1');
});

test('runtime-config api/all=false with one group version back on', () => {
  const c = createCatalog({ runtimeConfig: 'api/all=false,api/v1=true,apps/v1' });
  assert.deepEqual(c.groups().map(g => g.name), ['', 'apps']);
  assert.ok(c.lookup('apps', 'v1', 'deployments'));
  assert.equal(c.lookup('batch', 'v1', 'jobs'), undefined);
});

test('runtime-config beta everywhere keeps GA as the storage version', () => {
  const c = createCatalog({ runtimeConfig: 'api/beta=true' });
  assert.ok(c.lookup('resource.k8s.io', 'v1beta2', 'resourceclaims'));
  assert.equal(c.lookup('resource.k8s.io', 'v1beta2', 'resourceclaims')!.storageVersion, 'v1');
  assert.equal(c.lookup('resource.k8s.io', 'v1alpha3', 'devicetaintrules'), undefined);
  assert.deepEqual(c.groups().find(g => g.name === 'resource.k8s.io')!.versions, ['v1', 'v1beta2', 'v1beta1']);
});

test('runtime-config can switch off a single resource', () => {
  const c = createCatalog({ runtimeConfig: 'batch/v1/cronjobs=false' });
  assert.equal(c.lookup('batch', 'v1', 'cronjobs'), undefined);
  assert.ok(c.lookup('batch', 'v1', 'jobs'));
});

test('runtime-config naming a version this server does not have is an error', () => {
  assert.throws(() => createCatalog({ runtimeConfig: 'apps/v7=true' }), /apps\/v7/);
  assert.throws(() => createCatalog({ runtimeConfig: 'apps/v1=maybe' }), /invalid value apps\/v1=maybe/);
});
