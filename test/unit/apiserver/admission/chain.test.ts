// The admission chain through the real handlers and store: every plugin's mutating half, then
// every validating half, in the chain's order; what each verb shows a plugin (operation, old
// object, options, subresource, user, dry run); warnings into the Warning header; refusals as
// the plugin's Status with nothing written; plugins with side effects sitting out dry runs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../../src/api/status.ts';
import { AdmissionChain } from '../../../../src/apiserver/admission/chain.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../../src/apiserver/admission/types.ts';
import { testApi, type TestApi } from '../../support/fake-request.ts';

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const cms = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';

type Seen = { step: string; op: string; res: string; sub: string; ns: string; name: string; obj?: string; old?: string; opts?: string; dry: boolean; user: string };

function recorder(name: string, seen: Seen[], extra: Partial<AdmissionPlugin> & { refuse?: (a: AdmissionAttributes) => boolean } = {}): AdmissionPlugin {
  const note = (step: string) => (a: AdmissionAttributes) => {
    seen.push({ step: `${name}.${step}`, op: a.operation, res: a.resource.resource, sub: a.subresource, ns: a.namespace, name: a.name, obj: a.object?.kind, old: a.oldObject?.metadata.name, opts: a.options?.kind, dry: a.dryRun, user: a.user.name });
    if (step === 'admit' && a.object?.kind === 'ConfigMap') a.object.metadata.labels = { ...a.object.metadata.labels, [`by-${name.toLowerCase()}`]: 'yes' };
    if (extra.refuse?.(a)) throw new StatusError(403, 'Forbidden', `${name} says no`);
  };
  return { name, admit: note('admit'), validate: note('validate'), sideEffects: extra.sideEffects };
}

function install(...plugins: AdmissionPlugin[]): void { api.deps.admission = new AdmissionChain(plugins); }

test('create: all mutating halves in order, then all validating halves; mutations are stored', async () => {
  const seen: Seen[] = [];
  install(recorder('A', seen), recorder('B', seen));
  const r = await api.request('POST', cms, { body: { metadata: { name: 'c1' }, data: {} } });
  assert.equal(r.status, 201);
  assert.deepEqual(seen.map(s => s.step), ['A.admit', 'B.admit', 'A.validate', 'B.validate']);
  assert.deepEqual(seen[0], { step: 'A.admit', op: 'CREATE', res: 'configmaps', sub: '', ns: 'default', name: 'c1', obj: 'ConfigMap', old: undefined, opts: 'CreateOptions', dry: false, user: 'tester' });
  assert.deepEqual(r.json().metadata.labels, { 'by-a': 'yes', 'by-b': 'yes' });
});

test('update, patch and apply: UPDATE with the stored object as old; an apply that creates is a CREATE with CreateOptions (as Kubernetes turns PatchOptions into them)', async () => {
  const seen: Seen[] = [];
  install(recorder('A', seen));
  const cur = (await api.request('GET', `${cms}/c1`)).json();
  assert.equal((await api.request('PUT', `${cms}/c1`, { body: { ...cur, data: { k: 'v' } } })).status, 200);
  assert.equal((await api.request('PATCH', `${cms}/c1`, { body: { data: { k: 'w' } }, headers: { 'content-type': 'application/merge-patch+json' } })).status, 200);
  const applied = await api.request('PATCH', `${cms}/c2?fieldManager=t`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' } }, headers: { 'content-type': 'application/apply-patch+yaml' } });
  assert.equal(applied.status, 201);
  assert.deepEqual(seen.filter(s => s.step === 'A.admit').map(s => [s.op, s.name, s.old, s.opts]), [
    ['UPDATE', 'c1', 'c1', 'UpdateOptions'], ['UPDATE', 'c1', 'c1', 'PatchOptions'], ['CREATE', 'c2', undefined, 'CreateOptions'],
  ]);
});

test('delete and deletecollection: DELETE with the stored object, each object of a collection by its name', async () => {
  const seen: Seen[] = [];
  install(recorder('A', seen));
  assert.equal((await api.request('DELETE', `${cms}/c2`)).status, 200);
  assert.deepEqual(seen.map(s => [s.step, s.op, s.name, s.old, s.obj, s.opts]), [['A.admit', 'DELETE', 'c2', 'c2', undefined, 'DeleteOptions'], ['A.validate', 'DELETE', 'c2', 'c2', undefined, 'DeleteOptions']]);
  seen.length = 0;
  await api.request('POST', cms, { body: { metadata: { name: 'c3' } } });
  seen.length = 0;
  assert.equal((await api.request('DELETE', cms)).status, 200);
  assert.deepEqual(seen.filter(s => s.step === 'A.validate').map(s => s.name).sort(), ['c1', 'c3']);
});

test('a refusal in either phase is the plugin\'s Status and writes nothing; a later plugin does not run', async () => {
  for (const phase of ['admit', 'validate']) {
    const seen: Seen[] = [];
    install(recorder('A', seen, { refuse: a => seen.at(-1)!.step === `A.${phase}` && a.operation === 'CREATE' }), recorder('B', seen));
    const r = await api.request('POST', cms, { body: { metadata: { name: 'refused' } } });
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'A says no');
    assert.equal(seen.at(-1)!.step, `A.${phase}`);
    assert.equal((await api.request('GET', `${cms}/refused`)).status, 404);
  }
});

test('dry run: plugins see dryRun; one with side effects sits it out', async () => {
  const seen: Seen[] = [];
  install(recorder('A', seen), recorder('S', seen, { sideEffects: true }));
  assert.equal((await api.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: 'dry' } } })).status, 201);
  assert.deepEqual(seen.map(s => [s.step, s.dry]), [['A.admit', true], ['A.validate', true]]);
  seen.length = 0;
  assert.equal((await api.request('POST', cms, { body: { metadata: { name: 'wet' } } })).status, 201);
  assert.deepEqual(seen.map(s => s.step), ['A.admit', 'S.admit', 'A.validate', 'S.validate']);
});

test('warnings go into the Warning header, once each', async () => {
  install({ name: 'W', admit: a => { a.warn('careful'); a.warn('careful'); }, validate: a => a.warn('really') });
  const r = await api.request('POST', cms, { body: { metadata: { name: 'warned' } } });
  assert.equal(r.status, 201);
  assert.deepEqual(r.headers.warning, ['299 - "careful"', '299 - "really"']);
});

test('subresources: a status update and a binding are admitted with their subresource; a connect with its options', async () => {
  const seen: Seen[] = [];
  install();
  await api.request('POST', pods, { body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
  install(recorder('A', seen, { refuse: a => a.operation === 'CONNECT' }));
  const cur = (await api.request('GET', `${pods}/p`)).json();
  assert.equal((await api.request('PUT', `${pods}/p/status`, { body: { ...cur, status: { ...cur.status, message: 'hi' } } })).status, 200);
  assert.equal((await api.request('POST', `${pods}/p/binding`, { body: { metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } } })).status, 201);
  const exec = await api.request('GET', `${pods}/p/exec?command=ls&command=-l&stdout=true&container=c`);
  assert.equal(exec.status, 403);
  assert.deepEqual(seen.filter(s => s.step === 'A.admit').map(s => [s.op, s.res, s.sub, s.name, s.obj ?? s.old]), [
    ['UPDATE', 'pods', 'status', 'p', 'Pod'], ['CREATE', 'pods', 'binding', 'p', 'Binding'], ['CONNECT', 'pods', 'exec', 'p', 'PodExecOptions'],
  ]);
});
