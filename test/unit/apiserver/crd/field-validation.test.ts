// fieldValidation on custom resources: the fields the structural schema would prune are what
// Strict refuses (kube-apiserver's "strict decoding error"), Warn names in Warning headers and
// drops, and Ignore drops silently.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../../support/fake-request.ts';
import { until } from '../../../e2e/support/until.ts';
import { startCrdController } from '../../../../src/apiserver/crd/controller.ts';
import type { ExtensibleCatalog } from '../../../../src/schema/extensible-catalog.ts';
import { silentLogger } from '../../../../src/api/log.ts';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
  },
};
const base = '/apis/example.com/v1/namespaces/default/gadgets';
const gadget = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec: { size: 1, bogus: true, extra: { x: 1 } } });

/** an API serving the gadgets CRD */
async function servingGadgets(t: TestContext) {
  const api = await testApi();
  const controller = startCrdController({ registry: api.deps.registry, catalog: api.deps.catalog as ExtensibleCatalog, log: silentLogger });
  t.after(async () => { controller.stop(); await api.close(); });
  await controller.synced;
  assert.equal((await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
  await until('served', async () => (await api.request('GET', base)).status === 200, 5000, 20);
  return api;
}

test('Strict refuses the fields the schema prunes, Warn warns and drops them, Ignore drops them', async t => {
  const api = await servingGadgets(t);

  const strict = await api.request('POST', `${base}?fieldValidation=Strict`, { body: gadget('a') });
  assert.equal(strict.status, 400);
  assert.equal(strict.json().message, 'Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: unknown field "spec.bogus", unknown field "spec.extra"');

  const warn = await api.request('POST', base, { body: gadget('b') });
  assert.equal(warn.status, 201);
  assert.deepEqual(warn.headers.warning, ['299 - "unknown field \\"spec.bogus\\""', '299 - "unknown field \\"spec.extra\\""']);
  assert.deepEqual(warn.json().spec, { size: 1 });

  const ignore = await api.request('POST', `${base}?fieldValidation=Ignore`, { body: gadget('c') });
  assert.equal(ignore.status, 201);
  assert.equal(ignore.headers.warning, undefined);
  assert.deepEqual(ignore.json().spec, { size: 1 });
});

test('metadata that does not decode as ObjectMeta is a 400 in the coercer\'s words, before unknown fields', async t => {
  const api = await servingGadgets(t);
  const cases: Array<[unknown, string]> = [
    [{ name: -1683157080 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string'],
    [{ name: 'a', labels: { x: 1 } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string'],
  ];
  for (const [metadata, detail] of cases) {
    for (const [method, path] of [['POST', `${base}?fieldValidation=Strict`], ['PUT', `${base}/a`]] as const) {
      const reply = await api.request(method, path, { body: { ...gadget('a'), metadata } });
      assert.equal(reply.status, 400, `${method} ${JSON.stringify(metadata)}`);
      assert.equal(reply.json().message, `Gadget in version "v1" cannot be handled as a Gadget: ${detail}`);
    }
  }
});
