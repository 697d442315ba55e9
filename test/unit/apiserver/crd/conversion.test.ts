// Conversion between the versions of a CRD, through the router, a real registry and the CRD
// controller in process, against a conversion webhook served over HTTPS by the test: objects
// are stored in the storage version and read back through either version, lists convert a page
// in one review, watches convert their events, and a failing webhook is a 500 in
// kube-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { startCrdController } from '../../../../src/apiserver/crd/controller.ts';
import { conversionReviewCaller } from '../../../../src/apiserver/crd/conversion-webhook.ts';
import { CustomResourceConversions } from '../../../../src/registry/apiextensions/conversion/converter.ts';
import type { ExtensibleCatalog } from '../../../../src/schema/extensible-catalog.ts';
import { silentLogger } from '../../../../src/api/log.ts';
import { startConversionWebhook, type ConversionWebhook } from '../../../support/conversion-webhook.ts';
import { until as untilEvery } from '../../../e2e/support/until.ts';

const until = <T>(what: string, fn: () => Promise<T | undefined | false>) => untilEvery(what, fn, 5000, 20);

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const v1 = '/apis/example.com/v1/namespaces/default/targets';
const v2 = '/apis/example.com/v2/namespaces/default/targets';

const schema = (spec: Record<string, unknown>) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } });

function targetCrd(hook: ConversionWebhook, storage = 'v2') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'targets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'targets', kind: 'Target' },
      versions: [
        { name: 'v1', served: true, storage: storage === 'v1', schema: schema({ hostPort: { type: 'string' } }), subresources: { status: {} } },
        { name: 'v2', served: true, storage: storage === 'v2', schema: schema({ host: { type: 'string' }, port: { type: 'integer' } }), subresources: { status: {} } },
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url('/convert'), caBundle: hook.caBundle } } },
    },
  };
}

async function setup(t: { after(fn: () => unknown): void }): Promise<{ api: TestApi; hook: ConversionWebhook }> {
  const hook = await startConversionWebhook();
  const conversions = new CustomResourceConversions(conversionReviewCaller(async () => { throw new Error('no services here'); }));
  const api = await testApi({ store: { converterFor: info => conversions.forResource(info) } });
  const controller = startCrdController({ registry: api.deps.registry, catalog: api.deps.catalog as ExtensibleCatalog, log: silentLogger, conversions });
  t.after(async () => { controller.stop(); await api.close(); await hook.close(); });
  await controller.synced;
  assert.equal((await api.request('POST', crds, { body: targetCrd(hook) })).status, 201);
  await until('served', async () => (await api.request('GET', v1)).status === 200 && (await api.request('GET', v2)).status === 200);
  return { api, hook };
}

const target = (name: string, hostPort: string) => ({ apiVersion: 'example.com/v1', kind: 'Target', metadata: { name }, spec: { hostPort } });

test('an object written as v1 is stored as v2 and read as either; the webhook is asked both ways', async t => {
  const { api, hook } = await setup(t);
  const created = await api.request('POST', v1, { body: target('a', 'db:5432') });
  assert.equal(created.status, 201, created.text());
  assert.deepEqual([created.json().apiVersion, created.json().spec], ['example.com/v1', { hostPort: 'db:5432' }]);
  // to the storage version, then what was written back to the version asked for
  assert.deepEqual(hook.received.map(r => [r.path, r.review.apiVersion, r.review.request.desiredAPIVersion, r.review.request.objects.map(o => o.apiVersion)]), [
    ['/convert', 'apiextensions.k8s.io/v1', 'example.com/v2', ['example.com/v1']],
    ['/convert', 'apiextensions.k8s.io/v1', 'example.com/v1', ['example.com/v2']],
  ]);
  const stored = JSON.parse(Buffer.from((await api.storage.get('/registry/targets.example.com/default/a')).kv!.value).toString('utf8'));
  assert.deepEqual([stored.apiVersion, stored.spec], ['example.com/v2', { host: 'db', port: 5432 }]);

  const asV2 = (await api.request('GET', `${v2}/a`)).json();
  assert.deepEqual([asV2.apiVersion, asV2.spec, asV2.metadata.resourceVersion], ['example.com/v2', { host: 'db', port: 5432 }, created.json().metadata.resourceVersion]);
  const asV1 = await api.request('GET', `${v1}/a`, { headers: { accept: 'application/yaml' } });
  assert.match(asV1.text(), /apiVersion: example\.com\/v1[\s\S]*hostPort: db:5432/);

  // a patch through v1 is applied to the v1 form and stored as v2
  const patched = await api.request('PATCH', `${v1}/a`, { body: { spec: { hostPort: 'db:6543' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual(patched.json().spec, { hostPort: 'db:6543' });
  assert.deepEqual((await api.request('GET', `${v2}/a`)).json().spec, { host: 'db', port: 6543 });
  // the status subresource too
  const status = await api.request('PATCH', `${v1}/a/status`, { body: { status: { ready: true } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual([status.json().apiVersion, status.json().spec, status.json().status], ['example.com/v1', { hostPort: 'db:6543' }, { ready: true }]);
  assert.deepEqual((await api.request('GET', `${v2}/a`)).json().status, { ready: true });
  // a dry run converts nothing and writes nothing, as kube-apiserver's dry-run storage
  const before = hook.received.length;
  const dry = await api.request('POST', `${v1}?dryRun=All`, { body: target('dry', 'd:1') });
  assert.deepEqual([dry.status, dry.json().spec], [201, { hostPort: 'd:1' }]);
  assert.equal(hook.received.length, before);
  // a delete held by a finalizer answers with the object, in the version asked for
  await api.request('PATCH', `${v2}/a`, { body: { metadata: { finalizers: ['example.com/hold'] } }, headers: { 'content-type': 'application/merge-patch+json' } });
  const held = await api.request('DELETE', `${v1}/a`);
  assert.equal(held.status, 200);
  assert.deepEqual([held.json().apiVersion, held.json().spec, !!held.json().metadata.deletionTimestamp], ['example.com/v1', { hostPort: 'db:6543' }, true]);
});

test('a list converts a page in one review: only the items stored in another version', async t => {
  const { api, hook } = await setup(t);
  for (const [name, hp] of [['a', 'a:1'], ['b', 'b:2'], ['c', 'c:3']] as const) await api.request('POST', v1, { body: target(name, hp) });
  await api.request('POST', v2, { body: { apiVersion: 'example.com/v2', kind: 'Target', metadata: { name: 'd' }, spec: { host: 'd', port: 4 } } });
  hook.received.length = 0;
  const page = (await api.request('GET', `${v1}?limit=3`)).json();
  assert.deepEqual(page.items.map((o: any) => [o.apiVersion ?? page.apiVersion, o.spec.hostPort]), [['example.com/v1', 'a:1'], ['example.com/v1', 'b:2'], ['example.com/v1', 'c:3']]);
  assert.deepEqual(hook.received.map(r => r.review.request.objects.map(o => o.metadata.name)), [['a', 'b', 'c']]);
  hook.received.length = 0;
  const rest = (await api.request('GET', `${v1}?limit=3&continue=${encodeURIComponent(page.metadata.continue)}`)).json();
  assert.deepEqual(rest.items.map((o: any) => o.spec.hostPort), ['d:4']);
  assert.deepEqual(hook.received.map(r => r.review.request.objects.map(o => o.metadata.name)), [['d']]);
  // in the storage version nothing needs converting
  hook.received.length = 0;
  const asStored = (await api.request('GET', v2)).json();
  assert.deepEqual(asStored.items.map((o: any) => o.spec.port), [1, 2, 3, 4]);
  assert.equal(hook.received.length, 0);
  // selectors see the converted objects
  const selected = (await api.request('GET', `${v1}?fieldSelector=metadata.name%3Dc`)).json();
  assert.deepEqual(selected.items.map((o: any) => o.spec.hostPort), ['c:3']);
});

test('a watch through v1 sees objects written as v2 in v1', async t => {
  const { api } = await setup(t);
  const start = (await api.request('GET', v1)).json().metadata.resourceVersion;
  const ac = new AbortController();
  const watching = api.request('GET', `${v1}?watch=1&resourceVersion=${start}`, { signal: ac.signal });
  await api.request('POST', v2, { body: { apiVersion: 'example.com/v2', kind: 'Target', metadata: { name: 'w' }, spec: { host: 'w', port: 1 } } });
  await api.request('PATCH', `${v2}/w`, { body: { spec: { port: 2 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  await api.request('DELETE', `${v2}/w`);
  await new Promise(r => setTimeout(r, 300));
  ac.abort();
  const events = (await watching).text().trim().split('\n').map(l => JSON.parse(l));
  assert.deepEqual(events.map(e => [e.type, e.object.apiVersion, e.object.spec]), [
    ['ADDED', 'example.com/v1', { hostPort: 'w:1' }],
    ['MODIFIED', 'example.com/v1', { hostPort: 'w:2' }],
    ['DELETED', 'example.com/v1', { hostPort: 'w:2' }],
  ]);
});

test('a failing webhook is a 500 without a reason, in kube-apiserver\'s words', async t => {
  const { api, hook } = await setup(t);
  await api.request('POST', v2, { body: { apiVersion: 'example.com/v2', kind: 'Target', metadata: { name: 'x' }, spec: { host: 'x', port: 1 } } });
  hook.on('/convert', r => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'not-yours', result: { status: 'Success' }, convertedObjects: [] }, _: r }));
  const got = await api.request('GET', `${v1}/x`);
  assert.equal(got.status, 500);
  const uid = hook.received.at(-1)!.review.request.uid;
  assert.deepEqual(got.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, message: `conversion webhook for example.com/v2, Kind=Target failed: expected response.uid="${uid}", got "not-yours"` });
  const listed = await api.request('GET', v1);
  assert.equal(listed.status, 500);
  assert.match(listed.json().message, /^conversion webhook for example\.com\/v2, Kind=Target failed: expected response\.uid=/);
  hook.on('/convert', () => ({ status: 500, body: 'boom' }));
  const created = await api.request('POST', v1, { body: target('y', 'y:1') });
  assert.equal(created.json().message, 'conversion webhook for example.com/v1, Kind=Target failed: an error on the server ("boom") has prevented the request from succeeding');
  assert.equal((await api.request('GET', `${v2}/y`)).status, 404, 'nothing was written');
  // reads in the storage version never need the webhook
  assert.equal((await api.request('GET', `${v2}/x`)).status, 200);
  // a watch whose event cannot be converted ends with the error
  const start = (await api.request('GET', v2)).json().metadata.resourceVersion;
  hook.on('/convert', r => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: r.request.uid, result: { status: 'Failure', message: 'no' } } }));
  const ac = new AbortController();
  const watching = api.request('GET', `${v1}?watch=1&resourceVersion=${start}`, { signal: ac.signal });
  await api.request('PATCH', `${v2}/x`, { body: { spec: { port: 2 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  let bound: NodeJS.Timeout | undefined;
  const ended = await Promise.race([watching, new Promise<undefined>(r => { bound = setTimeout(() => r(undefined), 2000); })]);
  clearTimeout(bound);
  ac.abort();
  assert.ok(ended, 'the watch ended by itself');
  const events = ended.text().trim().split('\n').map(l => JSON.parse(l));
  assert.deepEqual(events.map(e => [e.type, e.object.code, e.object.message]), [['ERROR', 500, 'conversion webhook for example.com/v2, Kind=Target failed: no']]);
});

test('moving the storage version grows storedVersions; objects stored as v2 stay readable', async t => {
  const { api, hook } = await setup(t);
  await api.request('POST', v1, { body: target('old', 'o:1') });
  const crd = (await api.request('GET', `${crds}/targets.example.com`)).json();
  crd.spec = targetCrd(hook, 'v1').spec;
  const updated = await api.request('PUT', `${crds}/targets.example.com`, { body: crd });
  assert.equal(updated.status, 200, updated.text());
  assert.deepEqual(updated.json().status.storedVersions, ['v2', 'v1']);
  await until('v1 is the storage version', async () => api.deps.catalog.lookup('example.com', 'v2', 'targets')?.storageVersion === 'v1');
  await api.request('POST', v2, { body: { apiVersion: 'example.com/v2', kind: 'Target', metadata: { name: 'new' }, spec: { host: 'n', port: 2 } } });
  const kv = (await api.storage.get('/registry/targets.example.com/default/new')).kv!;
  assert.deepEqual(JSON.parse(Buffer.from(kv.value).toString('utf8')).spec, { hostPort: 'n:2' });
  const listed = (await api.request('GET', v1)).json();
  assert.deepEqual(listed.items.map((o: any) => [o.metadata.name, o.spec.hostPort]), [['new', 'n:2'], ['old', 'o:1']]);
  const asV2 = (await api.request('GET', `${v2}/old`)).json();
  assert.deepEqual(asV2.spec, { host: 'o', port: 1 });
  // v2 holds data: it cannot leave spec.versions
  const current = (await api.request('GET', `${crds}/targets.example.com`)).json();
  current.spec.versions = current.spec.versions.filter((v: { name: string }) => v.name !== 'v2');
  const refused = await api.request('PUT', `${crds}/targets.example.com`, { body: current });
  assert.equal(refused.status, 422);
  assert.match(refused.json().message, /status\.storedVersions\[0\]: Invalid value: "v2": missing from spec\.versions; v2 was previously a storage version/);
});
