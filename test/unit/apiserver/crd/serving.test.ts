// The CRD controller and the router in process: a CRD becomes Established and served, its
// resource answers every verb with Kubernetes' codes, and deleting the CRD removes its objects.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { startCrdController } from '../../../../src/apiserver/crd/controller.ts';
import type { ExtensibleCatalog } from '../../../../src/schema/extensible-catalog.ts';
import { silentLogger } from '../../../../src/api/log.ts';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 20));
  }
}

async function served(t: { after(fn: () => unknown): void }): Promise<TestApi> {
  const api = await testApi();
  const controller = startCrdController({ registry: api.deps.registry, catalog: api.deps.catalog as ExtensibleCatalog, log: silentLogger });
  t.after(async () => { controller.stop(); await api.close(); });
  await controller.synced;
  return api;
}

const gadgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Cluster', names: { plural: 'gadgets', kind: 'Gadget' },
    versions: [
      { name: 'v2', served: true, storage: true, subresources: { status: {} } },
      { name: 'v1', served: true, storage: false, deprecated: true, deprecationWarning: 'use example.com/v2' },
    ],
  },
};

test('a cluster-scoped CRD is served within moments of Established, every verb with Kubernetes answers', async t => {
  const api = await served(t);
  assert.equal((await api.request('POST', crds, { body: gadgetCrd })).status, 201);
  const started = Date.now();
  await until('Established', async () => (await api.request('GET', `${crds}/gadgets.example.com`)).json().status.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True'));
  const base = '/apis/example.com/v2/gadgets';
  await until('served', async () => (await api.request('GET', base)).status === 200, 1000);
  assert.ok(Date.now() - started < 1000);

  const created = await api.request('POST', base, { body: { apiVersion: 'example.com/v2', kind: 'Gadget', metadata: { name: 'a', labels: { x: '1' } }, spec: { size: 1 }, status: { ok: true } } });
  assert.equal(created.status, 201, created.text());
  assert.equal(created.json().status, undefined, 'status is left to its subresource');
  assert.equal(created.json().metadata.generation, 1);
  assert.equal((await api.request('POST', base, { body: { apiVersion: 'example.com/v2', kind: 'Gadget', metadata: { name: 'b' } } })).status, 201);
  assert.equal((await api.request('POST', '/apis/example.com/v2/namespaces/default/gadgets', { body: { metadata: { name: 'c' } } })).status, 404);

  // the deprecated version: same objects, its apiVersion, and the warning
  const old = await api.request('GET', '/apis/example.com/v1/gadgets/a');
  assert.equal(old.json().apiVersion, 'example.com/v1');
  assert.match(String(old.headers['warning']), /299 - "use example.com\/v2"/);

  const bySelector = await api.request('GET', `${base}?fieldSelector=metadata.name%3Db`);
  assert.deepEqual(bySelector.json().items.map((o: { metadata: { name: string } }) => o.metadata.name), ['b']);
  assert.equal(bySelector.json().kind, 'GadgetList');
  assert.deepEqual((await api.request('GET', `${base}?labelSelector=x%3D1`)).json().items.map((o: { metadata: { name: string } }) => o.metadata.name), ['a']);

  const smp = await api.request('PATCH', `${base}/a`, { body: { spec: { size: 2 } }, headers: { 'content-type': 'application/strategic-merge-patch+json' } });
  assert.equal(smp.status, 415);
  assert.equal(smp.json().message, 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
  const merged = await api.request('PATCH', `${base}/a`, { body: { spec: { size: 2 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual([merged.json().spec.size, merged.json().metadata.generation], [2, 2]);
  const jsonPatched = await api.request('PATCH', `${base}/a`, { body: [{ op: 'replace', path: '/spec/size', value: 3 }], headers: { 'content-type': 'application/json-patch+json' } });
  assert.equal(jsonPatched.json().spec.size, 3);
  const status = await api.request('PATCH', `${base}/a/status`, { body: { status: { ok: true }, spec: { size: 9 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual([status.json().status, status.json().spec.size], [{ ok: true }, 3]);
  const current = (await api.request('GET', `${base}/a`)).json();
  current.spec.size = 4;
  assert.equal((await api.request('PUT', `${base}/a`, { body: current })).json().spec.size, 4);

  assert.equal((await api.request('DELETE', `${base}?labelSelector=x%3D1`)).status, 200);
  assert.deepEqual((await api.request('GET', base)).json().items.map((o: { metadata: { name: string } }) => o.metadata.name), ['b']);
  assert.equal((await api.request('DELETE', `${base}/b`)).status, 200);
  assert.equal((await api.request('GET', `${base}/b`)).status, 404);
});

test('deleting a CRD marks it Terminating, removes its objects, then it and its resource go', async t => {
  const api = await served(t);
  await api.request('POST', crds, { body: gadgetCrd });
  const base = '/apis/example.com/v2/gadgets';
  await until('served', async () => (await api.request('GET', base)).status === 200);
  for (const name of ['a', 'b']) await api.request('POST', base, { body: { metadata: { name } } });
  const deleted = await api.request('DELETE', `${crds}/gadgets.example.com`);
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.json().metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  assert.deepEqual(deleted.json().status.conditions.find((c: { type: string }) => c.type === 'Terminating'),
    { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon', lastTransitionTime: deleted.json().metadata.deletionTimestamp });
  await until('the CRD is gone', async () => (await api.request('GET', `${crds}/gadgets.example.com`)).status === 404);
  assert.equal((await api.request('GET', base)).status, 404);
  // defined again: no object survived
  await api.request('POST', crds, { body: gadgetCrd });
  await until('served again', async () => (await api.request('GET', base)).status === 200);
  assert.deepEqual((await api.request('GET', base)).json().items, []);
});

test('a terminating CRD takes no new objects', async t => {
  const api = await served(t);
  await api.request('POST', crds, { body: gadgetCrd });
  const base = '/apis/example.com/v2/gadgets';
  await until('served', async () => (await api.request('GET', base)).status === 200);
  // an object held by a finalizer of its own keeps the CRD terminating
  await api.request('POST', base, { body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
  await api.request('DELETE', `${crds}/gadgets.example.com`);
  const refused = await until('create refused', async () => {
    const r = await api.request('POST', base, { body: { metadata: { name: 'late' } } });
    return r.status === 405 ? r : undefined;
  });
  assert.equal(refused.json().message, 'create not allowed while custom resource definition is terminating');
  assert.equal(refused.json().reason, 'MethodNotAllowed');
  const crd = await until('InstanceDeletionInProgress', async () => {
    const c = (await api.request('GET', `${crds}/gadgets.example.com`)).json();
    return c.status.conditions.find((x: { type: string; reason: string }) => x.type === 'Terminating' && x.reason === 'InstanceDeletionInProgress') ? c : undefined;
  });
  assert.ok(crd.metadata.deletionTimestamp);
  // the finalizer released, the object and then the CRD go
  await api.request('PATCH', `${base}/held`, { body: { metadata: { finalizers: null } }, headers: { 'content-type': 'application/merge-patch+json' } });
  await until('the CRD is gone', async () => (await api.request('GET', `${crds}/gadgets.example.com`)).status === 404);
});

test('a name added to a CRD is served; a restarted server serves stored CRDs at once', async t => {
  const api = await served(t);
  const catalog = api.deps.catalog as ExtensibleCatalog;
  await api.request('POST', crds, { body: gadgetCrd });
  await until('served', async () => catalog.lookup('example.com', 'v2', 'gadgets'));
  const patched = await api.request('PATCH', `${crds}/gadgets.example.com`, { body: { spec: { names: { shortNames: ['gd'], categories: ['all'] } } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(patched.status, 200, patched.text());
  const info = await until('the short name served', async () => catalog.lookup('example.com', 'v2', 'gadgets')?.shortNames.includes('gd') ? catalog.lookup('example.com', 'v2', 'gadgets') : undefined);
  assert.deepEqual(info.categories, ['all']);
  // as after a restart: nothing served until a controller has read the stored CRDs
  catalog.setCustomResources([]);
  const again = startCrdController({ registry: api.deps.registry, catalog, log: silentLogger });
  t.after(() => again.stop());
  await again.synced;
  assert.equal(catalog.lookup('example.com', 'v1', 'gadgets')?.custom?.deprecationWarning, 'use example.com/v2');
});

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: {
        type: 'object',
        properties: { spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self.replicas <= self.max', message: 'replicas must not exceed max' }],
          properties: {
            replicas: { type: 'integer', minimum: 0 },
            max: { type: 'integer', default: 10 },
            mode: { type: 'string', enum: ['fast', 'slow'] },
          },
        } },
      } },
    }],
  },
};

test('a custom resource is pruned, defaulted and validated by its version schema and its CEL rules', async t => {
  const api = await served(t);
  assert.equal((await api.request('POST', crds, { body: widgetCrd })).status, 201);
  const base = '/apis/example.com/v1/namespaces/default/widgets';
  await until('served', async () => (await api.request('GET', base)).status === 200);

  const created = await api.request('POST', base, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { replicas: 2, extra: true } } });
  assert.equal(created.status, 201, created.text());
  assert.deepEqual(created.json().spec, { replicas: 2, max: 10 }, 'unknown field pruned, default filled');

  const invalid = await api.request('POST', base, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'b' }, spec: { replicas: -1, mode: 'odd' } } });
  assert.equal(invalid.status, 422);
  assert.deepEqual(invalid.json().details.causes.map((c: { field: string }) => c.field).sort(), ['spec.mode', 'spec.replicas']);
  assert.match(invalid.json().message, /spec\.mode: Unsupported value: "odd": supported values: "fast", "slow"/);

  const overMax = await api.request('POST', base, { body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'c' }, spec: { replicas: 11 } } });
  assert.equal(overMax.status, 422);
  assert.match(overMax.json().message, /spec: Invalid value: .*replicas must not exceed max/);

  // a CRD whose rule does not compile is refused with the compiler's words
  const badRule = structuredClone(widgetCrd);
  badRule.metadata.name = 'gizmos.example.com';
  Object.assign(badRule.spec.names, { plural: 'gizmos', kind: 'Gizmo' });
  badRule.spec.versions[0]!.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.nope(', message: 'x' }];
  const refused = await api.request('POST', crds, { body: badRule });
  assert.equal(refused.status, 422);
  assert.match(refused.json().message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed/);
});
