// The webhook plugins in the admission chain through the real handlers and store: what each
// verb sends (operation, object, oldObject, options, dryRun) and a mutation stored.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../../support/fake-request.ts';
import { jsonPatch, respond, startWebhookServer, type WebhookServer } from '../../../../../support/webhook-server.ts';

let api: TestApi;
let server: WebhookServer;
before(async () => {
  [api, server] = await Promise.all([testApi({ admission: ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] }), startWebhookServer()]);
  server.on('/mutate', r => (r.request.operation === 'CREATE' ? respond(r, jsonPatch([{ op: 'add', path: '/data/added', value: 'by-webhook' }])) : respond(r)));
  assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } } })).status, 201);
  const webhook = (name: string, path: string) => ({
    name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  });
  const m = await api.request('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [webhook('m.example.com', '/mutate')] } });
  assert.equal(m.status, 201, m.text());
  const v = await api.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [webhook('v.example.com', '/validate')] } });
  assert.equal(v.status, 201, v.text());
});
after(async () => { await api.close(); await server.close(); });

/** the reviews each path got since `from` */
const since = (from: number, path: string) => server.received.slice(from).filter(x => x.path === path).map(x => x.review.request);

async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise(r => setTimeout(r, 10));
}

test('create: mutated before validation; the validating webhook sees the mutation; the mutation is stored', async () => {
  // the configurations reach the plugins through the watch
  await eventually(async () => { const n = server.received.length; await api.request('POST', '/api/v1/namespaces/dev/configmaps?dryRun=All', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } } }); return server.received.length > n; });
  const from = server.received.length;
  const r = await api.request('POST', '/api/v1/namespaces/dev/configmaps?fieldManager=me', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } } });
  assert.equal(r.status, 201, r.text());
  assert.deepEqual(r.json().data, { a: 'b', added: 'by-webhook' });
  const [m] = since(from, '/mutate');
  const [v] = since(from, '/validate');
  assert.equal(m!.operation, 'CREATE');
  assert.equal(m!.options.kind, 'CreateOptions');
  assert.equal(m!.options.fieldManager, 'me');
  assert.equal(v!.object.data.added, 'by-webhook');
  const got = await api.request('GET', '/api/v1/namespaces/dev/configmaps/cm');
  assert.equal(got.json().data.added, 'by-webhook');
});

test('update and patch send the stored object as oldObject; delete sends it with DeleteOptions', async () => {
  let from = server.received.length;
  const cur = (await api.request('GET', '/api/v1/namespaces/dev/configmaps/cm')).json();
  const put = await api.request('PUT', '/api/v1/namespaces/dev/configmaps/cm', { body: { ...cur, data: { a: 'c' } } });
  assert.equal(put.status, 200, put.text());
  const [u] = since(from, '/validate');
  assert.deepEqual([u!.operation, u!.oldObject.data.a, u!.object.data.a, u!.options.kind], ['UPDATE', 'b', 'c', 'UpdateOptions']);
  from = server.received.length;
  const patch = await api.request('PATCH', '/api/v1/namespaces/dev/configmaps/cm', { body: { data: { a: 'd' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(patch.status, 200, patch.text());
  const [p] = since(from, '/validate');
  assert.deepEqual([p!.operation, p!.oldObject.data.a, p!.object.data.a, p!.options.kind], ['UPDATE', 'c', 'd', 'PatchOptions']);
  from = server.received.length;
  const del = await api.request('DELETE', '/api/v1/namespaces/dev/configmaps/cm?dryRun=All');
  assert.equal(del.status, 200, del.text());
  const [d] = since(from, '/validate');
  assert.deepEqual([d!.operation, d!.object, d!.oldObject.data.a, d!.options.kind, d!.dryRun, d!.name], ['DELETE', null, 'd', 'DeleteOptions', true, 'cm']);
});

test('what each phase sees, as kube-apiserver orders it: mutating webhooks get no uid, creationTimestamp or generated name; validating ones get them all', async () => {
  // (the test registry's random draws the same name each time: the dry run goes first)
  for (const dry of ['?dryRun=All', '']) {
    const from = server.received.length;
    const r = await api.request('POST', `/api/v1/namespaces/dev/configmaps${dry}`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' }, data: { a: 'b' } }, headers: { 'user-agent': 'kubectl/v1.33.0 (linux/amd64)' } });
    assert.equal(r.status, 201, r.text());
    const made = r.json().metadata;
    const [m] = since(from, '/mutate');
    const [v] = since(from, '/validate');
    // the mutating phase: the body as sent with its namespace and the writer's managedFields
    assert.equal(m!.name, undefined, dry);
    assert.equal(m!.object.metadata.name, undefined);
    assert.equal(m!.object.metadata.generateName, 'gen-');
    assert.equal(m!.object.metadata.namespace, 'dev');
    assert.equal(m!.object.metadata.uid, undefined);
    assert.equal(m!.object.metadata.creationTimestamp, undefined);
    assert.deepEqual(m!.object.metadata.managedFields.map((f: { manager: string; operation: string }) => `${f.manager} ${f.operation}`), ['kubectl Update']);
    // the validating phase: the object as it is stored
    assert.equal(v!.name, made.name);
    assert.match(v!.object.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.equal(v!.object.metadata.uid, made.uid);
    assert.equal(v!.object.metadata.creationTimestamp, made.creationTimestamp);
    assert.equal(v!.object.data.added, 'by-webhook');
  }
});

test('an update: the mutating phase sees the body\'s metadata (a PUT without uid has none), the validating phase the stored uid', async () => {
  const created = await api.request('POST', '/api/v1/namespaces/dev/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upd' }, data: {} } });
  assert.equal(created.status, 201, created.text());
  const made = created.json();
  const from = server.received.length;
  const put = await api.request('PUT', '/api/v1/namespaces/dev/configmaps/upd', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upd' }, data: { x: 'y' } } });
  assert.equal(put.status, 200, put.text());
  const [m] = since(from, '/mutate');
  const [v] = since(from, '/validate');
  assert.equal(m!.object.metadata.uid, undefined);
  assert.equal(m!.object.metadata.creationTimestamp, undefined);
  assert.equal(m!.oldObject.metadata.uid, made.metadata.uid);
  assert.equal(v!.object.metadata.uid, made.metadata.uid);
  assert.equal(v!.object.metadata.creationTimestamp, made.metadata.creationTimestamp);
  assert.equal(put.json().metadata.uid, made.metadata.uid);
});
