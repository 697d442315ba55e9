// The generic store, step by step, in this process over SQLite and the watch cache: server-owned
// metadata, generateName, namespaces, validation, preconditions, subresources, generation,
// graceful deletion, finalizers, dry run and managed fields.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../src/api/status.ts';
import type { KubeObject } from '../../../src/api/object.ts';
import { testRegistry, type TestRegistry } from '../support/registry.ts';

let reg: TestRegistry;
const namespaces: Record<string, 'active' | 'terminating' | 'absent'> = { default: 'active', closing: 'terminating' };
before(async () => { reg = await testRegistry({ namespaceState: async ns => namespaces[ns] ?? 'absent' }); });
after(() => reg.close());

const cm = () => reg.info('', 'configmaps');
const pods = () => reg.info('', 'pods');
const deployments = () => reg.info('apps', 'deployments');
const nsInfo = () => reg.info('', 'namespaces');

function pod(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } } as KubeObject;
}

function deployment(name: string, replicas = 1): KubeObject {
  return { metadata: { name }, spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } } as KubeObject;
}

async function rejects(p: Promise<unknown>, code: number, reason: string, message?: string | RegExp): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, `a StatusError, not ${String(err)}`);
    assert.deepEqual([err.code, err.reason], [code, reason], err.message);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail(`expected ${code} ${reason}`);
}

test('create: server-owned metadata replaces what the client sent; kind and apiVersion are the resource\'s', async () => {
  const out = await reg.store.create(cm(), 'default', { kind: 'Other', metadata: { name: 'a', uid: 'mine', resourceVersion: '99', creationTimestamp: '2000-01-01T00:00:00Z', deletionTimestamp: '2000-01-01T00:00:00Z', generation: 7 } } as KubeObject);
  assert.equal(out.kind, 'ConfigMap');
  assert.equal(out.apiVersion, 'v1');
  assert.equal(out.metadata.uid, 'uid-1');
  assert.equal(out.metadata.namespace, 'default');
  assert.equal(out.metadata.creationTimestamp, '2026-01-02T03:04:05Z');
  assert.equal(out.metadata.deletionTimestamp, undefined);
  assert.equal(out.metadata.generation, undefined, 'configmaps track no generation');
  assert.notEqual(out.metadata.resourceVersion, '99');
  const p = await reg.store.create(pods(), 'default', pod('gen'));
  assert.equal(p.metadata.generation, 1, 'pods do');
  assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'BestEffort' });
});

test('create: generateName, retried on a collision; neither name nor generateName is a 422', async () => {
  const first = await reg.store.create(cm(), 'default', { metadata: { generateName: 'g-' } } as KubeObject);
  assert.match(first.metadata.name!, /^g-[a-z0-9]{5}$/);
  // the fixed random makes every generated name the same: the second create collides and retries up to its limit
  await rejects(reg.store.create(cm(), 'default', { metadata: { generateName: 'g-' } } as KubeObject), 409, 'AlreadyExists');
  await rejects(reg.store.create(cm(), 'default', { metadata: {} } as KubeObject), 422, 'Invalid', /metadata\.name: Required value: name or generateName is required/);
});

test('create: the namespace must exist and not be terminating; AlreadyExists; dry run writes nothing', async () => {
  await rejects(reg.store.create(cm(), 'ghost', { metadata: { name: 'x' } } as KubeObject), 404, 'NotFound', 'namespaces "ghost" not found');
  const term = await rejects(reg.store.create(cm(), 'closing', { metadata: { name: 'x' } } as KubeObject), 403, 'Forbidden');
  assert.equal(term.message, 'configmaps "x" is forbidden: unable to create new content in namespace closing because it is being terminated');
  await reg.store.create(cm(), 'default', { metadata: { name: 'dup' } } as KubeObject);
  await rejects(reg.store.create(cm(), 'default', { metadata: { name: 'dup' } } as KubeObject), 409, 'AlreadyExists', 'configmaps "dup" already exists');
  const before = await reg.storage.currentRevision();
  const dry = await reg.store.create(cm(), 'default', { metadata: { name: 'dry' } } as KubeObject, { dryRun: true });
  assert.equal(dry.metadata.name, 'dry');
  assert.equal(await reg.storage.currentRevision(), before);
  await rejects(reg.store.get(cm(), 'default', 'dry'), 404, 'NotFound');
});

test('create: names, labels and annotations are validated together', async () => {
  const err = await rejects(reg.store.create(cm(), 'default', { metadata: { name: 'Bad_Name', labels: { 'a/b/c': 'x', ok: '-bad' } } } as KubeObject), 422, 'Invalid');
  const fields = err.status.details!.causes!.map(c => c.field);
  assert.deepEqual(fields, ['metadata.name', 'metadata.labels', 'metadata.labels']);
});

test('update: name agreement, uid and resourceVersion preconditions, create-on-update only where allowed', async () => {
  const live = await reg.store.create(cm(), 'default', { metadata: { name: 'u' }, data: { a: '1' } } as KubeObject);
  await rejects(reg.store.update(cm(), 'default', 'u', { metadata: { name: 'v' } } as KubeObject), 400, 'BadRequest', 'the name of the object (v) does not match the name on the URL (u)');
  await rejects(reg.store.update(cm(), 'default', 'u', { metadata: { name: 'u', uid: 'other' } } as KubeObject), 409, 'Conflict',
    'Operation cannot be fulfilled on configmaps "u": Precondition failed: UID in precondition: other, UID in object meta: ' + live.metadata.uid);
  await rejects(reg.store.update(cm(), 'default', 'u', { metadata: { name: 'u', resourceVersion: '1' } } as KubeObject), 409, 'Conflict');
  const { object, created } = await reg.store.update(cm(), 'default', 'u', { metadata: { name: 'u', resourceVersion: live.metadata.resourceVersion }, data: { a: '2' } } as KubeObject);
  assert.equal(created, false);
  assert.deepEqual(object.data, { a: '2' });
  assert.equal(object.metadata.uid, live.metadata.uid);
  assert.equal(object.metadata.creationTimestamp, live.metadata.creationTimestamp);
  await rejects(reg.store.update(cm(), 'default', 'absent', { metadata: { name: 'absent' } } as KubeObject), 404, 'NotFound');
  const events = reg.info('', 'events');
  const made = await reg.store.update(events, 'default', 'e1', { metadata: { name: 'e1' }, involvedObject: {} } as KubeObject);
  assert.equal(made.created, true, 'events are created by PUT, as in Kubernetes');
});

test('update: nothing changed means no write; the main resource never changes status', async () => {
  const p = await reg.store.create(pods(), 'default', pod('same'));
  const again = await reg.store.update(pods(), 'default', 'same', p);
  assert.equal(again.object.metadata.resourceVersion, p.metadata.resourceVersion);
  const withStatus = await reg.store.update(pods(), 'default', 'same', { ...p, status: { phase: 'Running' } } as KubeObject);
  assert.equal((withStatus.object.status as { phase: string }).phase, 'Pending');
});

test('generation follows spec changes only', async () => {
  const d = await reg.store.create(deployments(), 'default', deployment('gen'));
  assert.equal(d.metadata.generation, 1);
  const labelled = await reg.store.modify(deployments(), 'default', 'gen', cur => ({ ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } }));
  assert.equal(labelled.metadata.generation, 1);
  const scaled = await reg.store.modify(deployments(), 'default', 'gen', cur => ({ ...cur, spec: { ...(cur.spec as object), replicas: 3 } }));
  assert.equal(scaled.metadata.generation, 2);
});

test('subresource writes: status changes status only, finalize spec.finalizers only, each recorded under its name', async () => {
  const p = await reg.store.create(pods(), 'default', pod('st'));
  const { object } = await reg.store.update(pods(), 'default', 'st', { ...p, metadata: { ...p.metadata, labels: { no: 'no' } }, spec: { ...(p.spec as object), nodeName: 'n' }, status: { phase: 'Running' } } as KubeObject, { subresource: 'status', manager: 'agent' });
  assert.equal((object.status as { phase: string }).phase, 'Running');
  assert.equal(object.metadata.labels, undefined);
  assert.equal((object.spec as { nodeName?: string }).nodeName, undefined);
  const entry = object.metadata.managedFields!.find(m => m.manager === 'agent')!;
  assert.equal(entry.subresource, 'status');
  assert.deepEqual(Object.keys(entry.fieldsV1 as object), ['f:status']);

  const ns = await reg.store.create(nsInfo(), undefined, { metadata: { name: 'fin' } } as KubeObject);
  const viaMain = await reg.store.update(nsInfo(), undefined, 'fin', { ...ns, spec: { finalizers: [] } } as KubeObject);
  assert.deepEqual((viaMain.object.spec as { finalizers: string[] }).finalizers, ['kubernetes']);
  const viaFinalize = await reg.store.update(nsInfo(), undefined, 'fin', { ...ns, metadata: { ...ns.metadata, labels: { x: 'y' } }, spec: { finalizers: [] } } as KubeObject, { subresource: 'finalize' });
  assert.deepEqual((viaFinalize.object.spec as { finalizers: string[] }).finalizers, []);
  assert.equal(viaFinalize.object.metadata.labels!.x, undefined);
  await rejects(reg.store.update(pods(), 'default', 'nobody', { metadata: { name: 'nobody' } } as KubeObject, { subresource: 'status' }), 404, 'NotFound');
});

test('modify: a resourceVersion the change sets is a precondition; a changed uid is immutable', async () => {
  const live = await reg.store.create(cm(), 'default', { metadata: { name: 'm' } } as KubeObject);
  await rejects(reg.store.modify(cm(), 'default', 'm', cur => ({ ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } })), 409, 'Conflict');
  await rejects(reg.store.modify(cm(), 'default', 'm', cur => ({ ...cur, metadata: { ...cur.metadata, uid: 'changed' } })), 422, 'Invalid', /metadata\.uid: Invalid value: "changed": field is immutable/);
  await rejects(reg.store.modify(cm(), 'default', 'm', cur => ({ ...cur, metadata: { ...cur.metadata, name: 'other' } })), 400, 'BadRequest');
  let calls = 0;
  const out = await reg.store.modify(cm(), 'default', 'm', async cur => {
    // someone else writes between this read and the write: a change that sets no resourceVersion runs again on the new object
    if (calls++ === 0) await reg.store.modify(cm(), 'default', 'm', c => ({ ...c, data: { other: 'x' } }));
    const { resourceVersion: _rv, ...meta } = cur.metadata;
    return { ...cur, metadata: meta, data: { ...(cur.data as object), mine: 'y' } };
  });
  assert.equal(calls, 2);
  assert.deepEqual(out.data, { other: 'x', mine: 'y' });
  assert.equal(out.metadata.uid, live.metadata.uid);
});

test('delete: preconditions, worded as Kubernetes words them', async () => {
  const live = await reg.store.create(cm(), 'default', { metadata: { name: 'del' } } as KubeObject);
  await rejects(reg.store.delete(cm(), 'default', 'del', { preconditions: { uid: 'x' } }), 409, 'Conflict', `Operation cannot be fulfilled on configmaps "del": Precondition failed: UID in precondition: x, UID in object meta: ${live.metadata.uid}`);
  await rejects(reg.store.delete(cm(), 'default', 'del', { preconditions: { resourceVersion: '1' } }), 409, 'Conflict', `Operation cannot be fulfilled on configmaps "del": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${live.metadata.resourceVersion}`);
  const dry = await reg.store.delete(cm(), 'default', 'del', { dryRun: true });
  assert.equal(dry.deleted, true);
  await reg.store.get(cm(), 'default', 'del');
  const gone = await reg.store.delete(cm(), 'default', 'del');
  assert.equal(gone.deleted, true);
  await rejects(reg.store.get(cm(), 'default', 'del'), 404, 'NotFound');
  await rejects(reg.store.delete(cm(), 'default', 'del'), 404, 'NotFound');
});

test('delete: a pod on a node is deleted gracefully; a shorter grace period replaces a longer one', async () => {
  await reg.store.create(pods(), 'default', pod('grace', { nodeName: 'n1' }));
  const first = await reg.store.delete(pods(), 'default', 'grace');
  assert.equal(first.deleted, false);
  assert.equal(first.object.metadata.deletionGracePeriodSeconds, 30);
  assert.equal(first.object.metadata.deletionTimestamp, '2026-01-02T03:04:35Z');
  const shorter = await reg.store.delete(pods(), 'default', 'grace', { gracePeriodSeconds: 5 });
  assert.equal(shorter.object.metadata.deletionGracePeriodSeconds, 5);
  assert.equal(shorter.object.metadata.deletionTimestamp, '2026-01-02T03:04:10Z');
  const longer = await reg.store.delete(pods(), 'default', 'grace', { gracePeriodSeconds: 60 });
  assert.equal(longer.object.metadata.deletionGracePeriodSeconds, 5, 'a longer one does not');
  const now = await reg.store.delete(pods(), 'default', 'grace', { gracePeriodSeconds: 0 });
  assert.equal(now.deleted, true);
  await reg.store.create(pods(), 'default', pod('unplaced'));
  assert.equal((await reg.store.delete(pods(), 'default', 'unplaced')).deleted, true, 'not on a node: at once');
});

test('delete: finalizers keep the object until the last is removed; none may be added meanwhile', async () => {
  await reg.store.create(cm(), 'default', { metadata: { name: 'f', finalizers: ['example.com/a'] } } as KubeObject);
  const marked = await reg.store.delete(cm(), 'default', 'f');
  assert.equal(marked.deleted, false);
  assert.ok(marked.object.metadata.deletionTimestamp);
  await rejects(reg.store.modify(cm(), 'default', 'f', cur => ({ ...cur, metadata: { ...cur.metadata, finalizers: ['example.com/a', 'example.com/b'] } })), 422, 'Invalid', /no new finalizers can be added if the object is being deleted/);
  await reg.store.modify(cm(), 'default', 'f', cur => ({ ...cur, metadata: { ...cur.metadata, finalizers: [] } }));
  await rejects(reg.store.get(cm(), 'default', 'f'), 404, 'NotFound');
});

test('delete: the namespaces the cluster relies on cannot be deleted', async () => {
  await reg.store.create(nsInfo(), undefined, { metadata: { name: 'kube-system' } } as KubeObject);
  await rejects(reg.store.delete(nsInfo(), undefined, 'kube-system'), 403, 'Forbidden', /this namespace may not be deleted/);
});

test('managed fields: a named manager\'s write is recorded as an Update; an Apply is left as apply recorded it', async () => {
  const created = await reg.store.create(cm(), 'default', { metadata: { name: 'mf' }, data: { a: '1' } } as KubeObject, { manager: 'kubectl' });
  assert.deepEqual(created.metadata.managedFields!.map(m => [m.manager, m.operation, m.time]), [['kubectl', 'Update', '2026-01-02T03:04:05Z']]);
  const applied = await reg.store.modify(cm(), 'default', 'mf', cur => ({ ...cur, data: { a: '2' } }), { manager: 'applier', operation: 'Apply' });
  assert.deepEqual(applied.metadata.managedFields!.map(m => m.manager), ['kubectl']);
  const none = await reg.store.create(cm(), 'default', { metadata: { name: 'anon' } } as KubeObject);
  assert.equal(none.metadata.managedFields, undefined, 'no manager, nothing recorded');
});

test('get, list and watch through the registry; waiting for a revision ends in 504 when it never comes', async () => {
  await reg.store.create(cm(), 'default', { metadata: { name: 'l1', labels: { l: 'x' } } } as KubeObject);
  const list = await reg.store.list(cm(), 'default');
  assert.ok(list.items.some(i => i.metadata.name === 'l1'));
  assert.match(list.metadata.resourceVersion!, /^\d+$/);
  const events: string[] = [];
  const w = await reg.store.watch(cm(), 'default', { afterRevision: await reg.store.currentRevision() }, { event: (type, obj) => events.push(`${type} ${(obj as KubeObject).metadata.name}`), end: () => {}, synced: () => {} });
  await reg.store.create(cm(), 'default', { metadata: { name: 'l2' } } as KubeObject);
  for (let i = 0; i < 50 && events.length === 0; i++) await new Promise(r => setTimeout(r, 20));
  w.cancel();
  assert.deepEqual(events, ['ADDED l2']);
  const rv = await reg.store.currentRevision();
  await reg.store.awaitRevision(rv);
  await rejects(reg.store.awaitRevision(rv + 100, 50), 504, 'Timeout', `Too large resource version: ${rv + 100}, current: ${rv}`);
});
