// The router and every verb's handler, request in and bytes out, in this process: no server,
// no socket. Status codes, reasons and bodies are what a client receives.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../support/fake-request.ts';

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const cms = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

function pod(name: string, extra: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...extra } };
}

function deployment(name: string, replicas: number) {
  return {
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  };
}

test('create answers 201 with the stored object and its server-set metadata', async () => {
  const r = await api.request('POST', cms, { body: { metadata: { name: 'a' }, data: { k: 'v' } } });
  assert.equal(r.status, 201, r.text());
  assert.equal(r.headers['content-type'], 'application/json');
  const obj = r.json();
  assert.deepEqual([obj.kind, obj.apiVersion, obj.metadata.name, obj.metadata.namespace, obj.metadata.uid, obj.metadata.creationTimestamp],
    ['ConfigMap', 'v1', 'a', 'default', 'uid-1', '2026-01-02T03:04:05Z']);
  assert.match(obj.metadata.resourceVersion, /^\d+$/);
});

test('get, list, and the 404 of a missing object', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'g' } } });
  const got = await api.request('GET', `${cms}/g`);
  assert.equal(got.status, 200);
  assert.equal(got.json().metadata.name, 'g');
  const list = await api.request('GET', cms);
  assert.equal(list.json().kind, 'ConfigMapList');
  assert.ok(list.json().items.some((i: { metadata: { name: string } }) => i.metadata.name === 'g'));
  const missing = await api.request('GET', `${cms}/nope`);
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });
});

test('update: a stale resourceVersion is a 409; a fresh one replaces the object', async () => {
  const created = (await api.request('POST', cms, { body: { metadata: { name: 'u' }, data: { a: '1' } } })).json();
  const ok = await api.request('PUT', `${cms}/u`, { body: { metadata: { name: 'u', resourceVersion: created.metadata.resourceVersion }, data: { a: '2' } } });
  assert.equal(ok.status, 200, ok.text());
  assert.deepEqual(ok.json().data, { a: '2' });
  const stale = await api.request('PUT', `${cms}/u`, { body: { metadata: { name: 'u', resourceVersion: created.metadata.resourceVersion }, data: { a: '3' } } });
  assert.equal(stale.status, 409);
  assert.equal(stale.json().reason, 'Conflict');
});

test('patch: merge, JSON and strategic patches; server-side apply creates', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'p' }, data: { a: '1' } } });
  const merge = await api.request('PATCH', `${cms}/p`, { body: { data: { b: '2' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual(merge.json().data, { a: '1', b: '2' });
  const json = await api.request('PATCH', `${cms}/p`, { body: [{ op: 'remove', path: '/data/a' }], headers: { 'content-type': 'application/json-patch+json' } });
  assert.deepEqual(json.json().data, { b: '2' });
  const smp = await api.request('PATCH', `${cms}/p`, { body: { data: { c: '3' } }, headers: { 'content-type': 'application/strategic-merge-patch+json' } });
  assert.deepEqual(smp.json().data, { b: '2', c: '3' });
  const applied = await api.request('PATCH', `${cms}/applied?fieldManager=me`, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  x: "1"\n', headers: { 'content-type': 'application/apply-patch+yaml' } });
  assert.equal(applied.status, 201, applied.text());
  assert.equal(applied.json().metadata.managedFields[0].manager, 'me');
  assert.equal(applied.json().metadata.managedFields[0].operation, 'Apply');
});

test('delete answers a Success Status (pods: the object); deletecollection the deleted list', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'd', labels: { gone: 'yes' } } } });
  const del = await api.request('DELETE', `${cms}/d`);
  assert.equal(del.status, 200);
  assert.deepEqual(del.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'd', kind: 'configmaps', uid: del.json().details.uid } });
  await api.request('POST', pods, { body: pod('dp') });
  const podDel = await api.request('DELETE', `${pods}/dp`);
  assert.equal(podDel.json().kind, 'Pod');
  await api.request('POST', cms, { body: { metadata: { name: 'd1', labels: { batch: 'x' } } } });
  await api.request('POST', cms, { body: { metadata: { name: 'd2', labels: { batch: 'x' } } } });
  const coll = await api.request('DELETE', `${cms}?labelSelector=batch%3Dx`);
  assert.deepEqual(coll.json().items.map((i: { metadata: { name: string } }) => i.metadata.name), ['d1', 'd2']);
});

test('router: unknown resources and subresources 404, verbs a path does not take 405, bad names 400', async () => {
  assert.equal((await api.request('GET', '/api/v1/namespaces/default/widgets')).status, 404);
  assert.equal((await api.request('POST', `${pods}/x/exec`, { body: {} })).status, 404, 'not implemented here');
  assert.equal((await api.request('PUT', cms, { body: {} })).status, 405, 'a collection is never replaced');
  assert.equal((await api.request('DELETE', `${pods}/x/status`)).status, 405);
  assert.equal((await api.request('POST', '/api/v1/configmaps', { body: { metadata: { name: 'n' } } })).status, 404, 'a namespaced write needs a namespace');
  const bad = await api.request('GET', `${cms}/..`);
  assert.equal(bad.status, 400);
  assert.match(bad.json().message, /^Name parameter invalid/);
});

test('status subresource: GET answers the object; PUT and PATCH change status only', async () => {
  await api.request('POST', pods, { body: pod('s') });
  const got = await api.request('GET', `${pods}/s/status`);
  assert.equal(got.json().kind, 'Pod');
  const current = got.json();
  const put = await api.request('PUT', `${pods}/s/status`, { body: { ...current, metadata: { ...current.metadata, labels: { ignored: 'yes' } }, status: { ...current.status, phase: 'Running' } } });
  assert.equal(put.status, 200, put.text());
  assert.equal(put.json().status.phase, 'Running');
  assert.equal(put.json().metadata.labels, undefined, 'a status write changes status only');
  const patched = await api.request('PATCH', `${pods}/s/status`, { body: { status: { message: 'hi' }, spec: { nodeName: 'ignored' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(patched.json().status.message, 'hi');
  assert.equal(patched.json().spec.nodeName, undefined);
  const main = await api.request('PATCH', `${pods}/s`, { body: { status: { phase: 'Failed' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(main.json().status.phase, 'Running', 'the main resource never changes status');
});

test('scale subresource: a Scale view read, replaced and patched; apply is refused', async () => {
  assert.equal((await api.request('POST', deployments, { body: deployment('web', 2) })).status, 201);
  const scale = await api.request('GET', `${deployments}/web/scale`);
  assert.deepEqual({ kind: scale.json().kind, apiVersion: scale.json().apiVersion, spec: scale.json().spec, selector: scale.json().status.selector },
    { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, selector: 'app=web' });
  const put = await api.request('PUT', `${deployments}/web/scale`, { body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: 5 } } });
  assert.equal(put.status, 200, put.text());
  assert.equal(put.json().spec.replicas, 5);
  const patched = await api.request('PATCH', `${deployments}/web/scale`, { body: { spec: { replicas: 7 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(patched.json().spec.replicas, 7);
  const dep = (await api.request('GET', `${deployments}/web`)).json();
  assert.equal(dep.spec.replicas, 7);
  assert.ok(dep.metadata.managedFields.some((m: { subresource?: string }) => m.subresource === 'scale'));
  const apply = await api.request('PATCH', `${deployments}/web/scale?fieldManager=x`, { body: 'spec:\n  replicas: 1\n', headers: { 'content-type': 'application/apply-patch+yaml' } });
  assert.equal(apply.status, 415);
  const negative = await api.request('PUT', `${deployments}/web/scale`, { body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: -1 } } });
  assert.equal(negative.status, 422);
});

test('binding subresource: writes to the pod racing with it are no conflict (a scheduler would drop the pod)', async () => {
  await api.request('POST', pods, { body: pod('race') });
  const patches = Array.from({ length: 2 }, (_, i) => api.request('PATCH', `${pods}/race/status`, {
    body: { status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `try ${i}` }] } },
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
  }));
  const bound = await api.request('POST', `${pods}/race/binding`, { body: { metadata: { name: 'race' }, target: { kind: 'Node', name: 'n1' } } });
  await Promise.all(patches);
  assert.equal(bound.status, 201, bound.text());
  assert.equal((await api.request('GET', `${pods}/race`)).json().spec.nodeName, 'n1');
});

test('finalize subresource: the only way to change a namespace\'s spec.finalizers', async () => {
  const ns = '/api/v1/namespaces';
  const created = (await api.request('POST', ns, { body: { metadata: { name: 'fin' } } })).json();
  assert.deepEqual(created.spec.finalizers, ['kubernetes']);
  const viaMain = await api.request('PUT', `${ns}/fin`, { body: { ...created, spec: { finalizers: [] } } });
  assert.deepEqual(viaMain.json().spec.finalizers, ['kubernetes']);
  const viaFinalize = await api.request('PUT', `${ns}/fin/finalize`, { body: { ...created, metadata: { ...created.metadata, labels: { x: 'y' } }, spec: { finalizers: [] } } });
  assert.equal(viaFinalize.status, 200, viaFinalize.text());
  assert.deepEqual(viaFinalize.json().spec.finalizers, []);
  assert.equal(viaFinalize.json().metadata.labels.x, undefined, 'only spec.finalizers changes');
});

test('binding subresource: 201 Success; the pod is on the node; a second binding is a 409', async () => {
  await api.request('POST', pods, { body: pod('b') });
  const bound = await api.request('POST', `${pods}/b/binding`, { body: { metadata: { name: 'b' }, target: { kind: 'Node', name: 'n1' } } });
  assert.equal(bound.status, 201, bound.text());
  assert.deepEqual(bound.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const p = (await api.request('GET', `${pods}/b`)).json();
  assert.equal(p.spec.nodeName, 'n1');
  assert.ok(p.status.conditions.some((c: { type: string; lastTransitionTime: string }) => c.type === 'PodScheduled' && c.lastTransitionTime === '2026-01-02T03:04:05Z'));
  const again = await api.request('POST', `${pods}/b/binding`, { body: { target: { name: 'n2' } } });
  assert.equal(again.status, 409);
  assert.equal(again.json().message, 'Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "n1"');
  const invalid = await api.request('POST', `${pods}/b/binding`, { body: { target: { kind: 'Service', name: 'x' } } });
  assert.equal(invalid.status, 422);
});

test('log subresource: checked before any node is asked', async () => {
  await api.request('POST', pods, { body: pod('l') });
  const unplaced = await api.request('GET', `${pods}/l/log`);
  assert.equal(unplaced.status, 204, 'not on a node: no log to stream');
  const badTail = await api.request('GET', `${pods}/l/log?tailLines=-1`);
  assert.equal(badTail.status, 422);
  assert.equal(badTail.json().message, 'PodLogOptions "l" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
  const badContainer = await api.request('GET', `${pods}/l/log?container=zz`);
  assert.equal(badContainer.json().message, 'container zz is not valid for pod l');
  await api.request('POST', `${pods}/l/binding`, { body: { target: { name: 'ghost' } } });
  const noNode = await api.request('GET', `${pods}/l/log`);
  assert.equal(noNode.status, 404);
  assert.equal(noNode.json().message, 'nodes "ghost" not found');
});

test('watch streams events as JSON lines until the client goes away', async () => {
  const ac = new AbortController();
  const watching = api.request('GET', `${cms}?watch=1&labelSelector=w%3D1`, { signal: ac.signal });
  await new Promise(r => setTimeout(r, 100));
  await api.request('POST', cms, { body: { metadata: { name: 'w', labels: { w: '1' } } } });
  await new Promise(r => setTimeout(r, 200));
  ac.abort();
  const r = await watching;
  assert.equal(r.status, 200);
  const events = r.text().trim().split('\n').map(l => JSON.parse(l));
  assert.deepEqual(events.map(e => [e.type, e.object.metadata.name]), [['ADDED', 'w']]);
});

test('a write whose answer cannot be given in the Accept asked for is refused before it writes', async () => {
  const w = await api.request('POST', cms, { body: { metadata: { name: 'never' } }, headers: { accept: 'text/html' } });
  assert.equal(w.status, 406);
  assert.equal((await api.request('GET', `${cms}/never`)).status, 404);
});

test('fieldValidation=Warn: unknown fields come back as Warning headers; Strict refuses them', async () => {
  const warned = await api.request('POST', `${cms}?fieldValidation=Warn`, { body: { metadata: { name: 'warned' }, bogus: 1 } });
  assert.equal(warned.status, 201);
  assert.deepEqual(warned.headers.warning, ['299 - "unknown field \\"bogus\\""']);
  const strict = await api.request('POST', `${cms}?fieldValidation=Strict`, { body: { metadata: { name: 'strict' }, bogus: 1 } });
  assert.equal(strict.status, 400);
  assert.match(strict.json().message, /unknown field "bogus"/);
});
