// The unsafe delete (src/apiserver/handlers/unsafe-delete.ts) and corrupt objects
// (src/registry/corrupt-object.ts), through the router and handlers over SQLite: corrupt bytes
// are written into storage under the registry, as a damaged disk or a lost encryption key
// leaves them. Reads answer Kubernetes' corrupt-object errors; only a delete with
// ignoreStoreReadErrorWithClusterBreakingPotential, the feature gate on and the extra verb
// granted removes such an object, finalizers and preconditions notwithstanding.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { apiServerFeatureGates, featureGates } from '../../../../src/api/feature-gates.ts';
import type { Attributes, Authorizer } from '../../../../src/apiserver/authz/attributes.ts';

const enc = new TextEncoder();
const cms = '/api/v1/namespaces/default/configmaps';
const key = (name: string) => `/registry/configmaps/default/${name}`;
const option = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/** jane may do exactly the verbs granted (all on configmaps); every decision is recorded */
const granted = new Set(['get', 'list', 'create', 'delete']);
const asked: Attributes[] = [];
const authorizer: Authorizer = {
  authorize(a) {
    asked.push(a);
    return granted.has(a.verb) && a.resource === 'configmaps' ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' };
  },
};

let on: TestApi;
let off: TestApi;
before(async () => {
  on = await testApi({ features: featureGates({ AllowUnsafeMalformedObjectDeletion: true }, apiServerFeatureGates), user: { name: 'jane', groups: ['system:authenticated'] }, authorizer });
  off = await testApi({ features: featureGates({}, apiServerFeatureGates) });
});
after(async () => { await on.close(); await off.close(); });

async function corrupt(api: TestApi, name: string, bytes = '\x00k8s\x00garbage') {
  await api.storage.create(key(name), enc.encode(bytes));
}

test('the gate is alpha and off by default, as in Kubernetes 1.32 to 1.35', () => {
  assert.deepEqual(apiServerFeatureGates.AllowUnsafeMalformedObjectDeletion, { default: false, stage: 'ALPHA' });
});

test('a get of a corrupt object is a 500 naming the key and the failed decode', async () => {
  await corrupt(on, 'bad-get');
  const r = await on.request('GET', `${cms}/bad-get`);
  assert.equal(r.status, 500);
  const s = r.json();
  assert.equal(s.reason, 'InternalError');
  assert.match(s.message, /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad-get, ResourceVersion: 0, AdditionalErrorMsg: failed to decode the object stored at \/registry\/configmaps\/default\/bad-get: /);
});

test('a list meeting corrupt objects names every one of them (StoreReadError), as JSON and decoded', async () => {
  const api = await testApi({ features: featureGates({ AllowUnsafeMalformedObjectDeletion: true }, apiServerFeatureGates) });
  try {
    await api.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'fine' } } });
    await corrupt(api, 'x1');
    await corrupt(api, 'x2', '{"metadata":');
    for (const target of [cms, `${cms}?labelSelector=a!=b`]) {
      const r = await api.request('GET', target);
      assert.equal(r.status, 500, target);
      const s = r.json();
      assert.equal(s.reason, 'StoreReadError');
      assert.equal(s.message, 'failed to read one or more configmaps from the storage');
      assert.deepEqual(s.details.causes.map((c: { field: string; reason: string }) => [c.reason, c.field]),
        [['UnexpectedServerResponse', key('x1')], ['UnexpectedServerResponse', key('x2')]]);
    }
  } finally {
    await api.close();
  }
});

test('a normal delete of a corrupt object fails with the corrupt-object error', async () => {
  await corrupt(on, 'bad-del');
  const r = await on.request('DELETE', `${cms}/bad-del`);
  assert.equal(r.status, 500);
  assert.match(r.json().message, /StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad-del/);
});

test('the option without the extra verb is refused in Kubernetes\' words, and nothing is deleted', async () => {
  await corrupt(on, 'bad-noverb');
  asked.length = 0;
  const r = await on.request('DELETE', `${cms}/bad-noverb`, { body: { [option]: true } });
  assert.equal(r.status, 403, r.text());
  const s = r.json();
  assert.equal(s.message, 'configmaps "bad-noverb" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ');
  assert.deepEqual(s.details, { name: 'bad-noverb', kind: 'configmaps' });
  assert.deepEqual(asked.map(a => [a.verb, a.resource, a.namespace, a.name]), [['unsafe-delete-ignore-read-errors', 'configmaps', 'default', 'bad-noverb']]);
  assert.equal((await on.request('GET', `${cms}/bad-noverb`)).status, 500);
});

test('with the verb granted the corrupt object goes, finalizers in its bytes notwithstanding', async () => {
  await corrupt(on, 'bad-ok', '{"metadata":{"name":"bad-ok","finalizers":["x/y"]'); // truncated: finalizers unreadable
  granted.add('unsafe-delete-ignore-read-errors');
  try {
    const r = await on.request('DELETE', `${cms}/bad-ok?${option}=true`);
    assert.equal(r.status, 200, r.text());
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'bad-ok', kind: 'configmaps' } });
    assert.equal((await on.request('GET', `${cms}/bad-ok`)).status, 404);
    // on a readable object the option is refused: 422 naming the resource
    await on.request('POST', cms, { body: { metadata: { name: 'good' } } });
    const refused = await on.request('DELETE', `${cms}/good`, { body: { [option]: true } });
    assert.equal(refused.status, 422);
    assert.equal(refused.json().message, 'configmaps "good" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option');
    assert.equal((await on.request('GET', `${cms}/good`)).status, 200);
    // an absent object is NotFound
    assert.equal((await on.request('DELETE', `${cms}/nowhere`, { body: { [option]: true } })).status, 404);
  } finally {
    granted.delete('unsafe-delete-ignore-read-errors');
  }
});

test('the option stands alone: every other delete option set with it is named', async () => {
  const r = await on.request('DELETE', `${cms}/any?dryRun=All&gracePeriodSeconds=0`, { body: { [option]: true, propagationPolicy: 'Background', preconditions: { uid: 'u' } } });
  assert.equal(r.status, 422);
  assert.equal(r.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun, '
    + 'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .propagationPolicy, '
    + 'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds, '
    + 'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .preconditions]');
});

test('with the gate off the option is dropped: the delete runs as any other', async () => {
  await corrupt(off, 'bad-off');
  const r = await off.request('DELETE', `${cms}/bad-off`, { body: { [option]: true } });
  assert.equal(r.status, 500);
  assert.match(r.json().message, /corrupt object/);
  await off.request('POST', cms, { body: { metadata: { name: 'fine-off' } } });
  const ok = await off.request('DELETE', `${cms}/fine-off?${option}=true&dryRun=All`);
  assert.equal(ok.status, 200, ok.text());
  assert.equal((await off.request('GET', `${cms}/fine-off`)).status, 200);
});

test('an eviction never takes the option: 422 naming it, the pod untouched', async () => {
  const pods = '/api/v1/namespaces/default/pods';
  assert.equal((await off.request('POST', pods, { body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } })).status, 201);
  const r = await off.request('POST', `${pods}/p/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' }, deleteOptions: { [option]: true } } });
  assert.equal(r.status, 422, r.text());
  assert.equal(r.json().message, 'Eviction.policy "p" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option');
  assert.equal((await off.request('GET', `${pods}/p`)).status, 200);
});

test('a watcher sees the unsafe delete of a corrupt object as a StoreReadError ending its watch', async () => {
  await corrupt(on, 'bad-watch');
  const info = on.deps.catalog.lookup('', 'v1', 'configmaps')!;
  const events: string[] = [];
  let ended!: (err: unknown) => void;
  const end = new Promise(r => { ended = r; });
  const w = await on.deps.registry.watch(info, 'default', { afterRevision: await on.deps.registry.currentRevision() }, { event: type => { events.push(type); }, end: err => ended(err) });
  granted.add('unsafe-delete-ignore-read-errors');
  try {
    assert.equal((await on.request('DELETE', `${cms}/bad-watch`, { body: { [option]: true } })).status, 200);
    let bound: NodeJS.Timeout | undefined;
    const err = await Promise.race([end, new Promise((_, no) => { bound = setTimeout(() => no(new Error('the watch did not end')), 5000); })]).finally(() => clearTimeout(bound)) as { status: { code: number; reason: string; message: string } };
    assert.deepEqual([err.status.code, err.status.reason], [500, 'StoreReadError']);
    assert.match(err.status.message, /^saw a DELETED event, but object data is corrupt - StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad-watch/);
    assert.deepEqual(events, []);
  } finally {
    granted.delete('unsafe-delete-ignore-read-errors');
    w.cancel();
  }
});

test('a delete of a whole collection does not take the option', async () => {
  const r = await on.request('DELETE', `${cms}?${option}=true`);
  assert.equal(r.status, 422);
  assert.equal(r.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option');
});
