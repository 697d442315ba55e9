// The generic store (src/registry/store.ts), every step of its pipeline, in this process over
// SQLite and the watch cache in a temporary directory. The clock, the random source behind
// generateName, the uids and the namespaces' states are injected through StoreDeps, so every
// result is fixed; errors are checked as the Status a client would read (code, reason, message).
// test/unit/registry/store.test.ts walks the same pipeline more briefly; this file goes step by
// step and compares wording with Kubernetes', with `todo` where orch says it differently.

import { goJsonBody } from '../../../src/codec/go-json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../src/api/status.ts';
import type { KubeList, KubeObject } from '../../../src/api/object.ts';
import { itemsPerSlice, type WatchEventType } from '../../../src/registry/list-watch.ts';
import type { WriteAdmission } from '../../../src/registry/registry.ts';
import { testRegistry, type TestRegistry } from '../support/registry.ts';

// ---- the injected world ---------------------------------------------------------------------

const t0 = '2026-03-04T05:06:07Z';
let now = new Date(t0);
const setNow = (iso: string) => { now = new Date(iso); };
const at = (seconds: number) => new Date(Date.parse(t0) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

let uids = 0;
/** values the next random() calls return, in order (0.5 once they run out); every call counted */
let randoms: number[] = [];
let randomCalls = 0;

let reg: TestRegistry;
before(async () => {
  reg = await testRegistry({
    clock: { now: () => now },
    uid: () => `uid-${++uids}`,
    random: () => { randomCalls++; return randoms.length ? randoms.shift()! : 0.5; },
  });
});
after(() => reg.close());

// generateName draws five characters from Kubernetes' alphabet, one random() each
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const drawing = (suffix: string) => [...suffix].map(ch => (alphabet.indexOf(ch) + 0.5) / alphabet.length);

const cm = () => reg.info('', 'configmaps');
const pods = () => reg.info('', 'pods');
const deployments = () => reg.info('apps', 'deployments');
const nsInfo = () => reg.info('', 'namespaces');
const events = () => reg.info('', 'events');
const roles = () => reg.info('rbac.authorization.k8s.io', 'roles');

const configMap = (name: string, extra: Partial<KubeObject['metadata']> = {}, data: Record<string, string> = {}): KubeObject =>
  ({ metadata: { name, ...extra }, data } as KubeObject);

function pod(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } } as KubeObject;
}

function deployment(name: string, replicas = 1): KubeObject {
  return {
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  } as KubeObject;
}

const revision = () => reg.storage.currentRevision();

/** the StatusError a promise rejects with, checked for code, reason and (exact or matched) message */
async function rejects(p: Promise<unknown>, code: number, reason: string, message?: string | RegExp): Promise<StatusError> {
  let result: unknown;
  try {
    result = await p;
  } catch (err) {
    assert.ok(err instanceof StatusError, `a StatusError, not ${String(err)}`);
    assert.deepEqual([err.code, err.reason], [code, reason], err.message);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail(`expected ${code} ${reason}, got ${JSON.stringify(result)}`);
}

/** rejects, and storage did not move */
async function rejectsUnwritten(p: Promise<unknown>, code: number, reason: string, message?: string | RegExp): Promise<StatusError> {
  const before = await revision();
  const err = await rejects(p, code, reason, message);
  assert.equal(await revision(), before, 'a refused write writes nothing');
  return err;
}

async function absent(info = cm(), ns: string | undefined = 'default', name: string) {
  await rejects(reg.store.get(info, ns, name), 404, 'NotFound');
}

// ---- create -----------------------------------------------------------------------------------

test('create: the server owns uid, creationTimestamp, resourceVersion, generation, kind and apiVersion', async () => {
  setNow(t0);
  const sent = {
    apiVersion: 'v9', kind: 'Other',
    metadata: { name: 'owned', namespace: 'elsewhere', uid: 'mine', resourceVersion: '999', creationTimestamp: '2001-01-01T00:00:00Z', generation: 42, deletionTimestamp: '2001-01-01T00:00:00Z', deletionGracePeriodSeconds: 5 },
    spec: deployment('owned').spec,
  } as KubeObject;
  const before = await revision();
  const uidBefore = uids;
  const out = await reg.store.create(deployments(), 'default', sent);
  assert.equal(out.apiVersion, 'apps/v1');
  assert.equal(out.kind, 'Deployment');
  assert.equal(out.metadata.uid, `uid-${uidBefore + 1}`, 'the injected uid');
  assert.equal(out.metadata.namespace, 'default', 'the namespace of the request, not of the body');
  assert.equal(out.metadata.creationTimestamp, t0, 'the injected clock, to the second');
  assert.equal(out.metadata.generation, 1, 'a workload starts at generation 1 whatever was sent');
  assert.equal(out.metadata.deletionTimestamp, undefined);
  assert.equal(out.metadata.deletionGracePeriodSeconds, undefined);
  assert.equal(await revision(), before + 1, 'one write');
  assert.equal(out.metadata.resourceVersion, String(before + 1), 'the resourceVersion is the revision of that write');
  assert.deepEqual(sent.metadata.uid, 'mine', 'the caller\'s object is not changed');
  assert.deepEqual(await reg.store.get(deployments(), 'default', 'owned'), out, 'what create answers is what is stored');
});

test('create: pods start at generation 1 with a server-set status; configmaps have no generation', async () => {
  const p = await reg.store.create(pods(), 'default', { ...pod('gen1'), status: { phase: 'Running', podIP: '10.0.0.9' } } as KubeObject);
  assert.equal(p.metadata.generation, 1);
  assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'BestEffort' }, 'a status sent on create is the server\'s to set');
  const c = await reg.store.create(cm(), 'default', configMap('nogen', { generation: 3 }));
  assert.equal(c.metadata.generation, undefined);
});

test('create: a cluster-scoped object loses any namespace', async () => {
  const ns = await reg.store.create(nsInfo(), undefined, { metadata: { name: 'made', namespace: 'default' } } as KubeObject);
  assert.equal(ns.metadata.namespace, undefined);
  assert.deepEqual(ns.metadata.labels, { 'kubernetes.io/metadata.name': 'made' });
  assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
  assert.deepEqual(ns.status, { phase: 'Active' });
});

/** admission hooks that record what they saw, and may change or refuse */
function recordingAdmission(seen: string[], opts: { mutate?: (o: KubeObject) => void; refuse?: 'mutate' | 'validate' } = {}): WriteAdmission {
  return {
    async mutate(obj, old) {
      seen.push(`mutate ${old ? 'update' : 'create'} name=${obj.metadata.name ?? ''} uid=${obj.metadata.uid ? 'set' : 'unset'}`);
      opts.mutate?.(obj);
      if (opts.refuse === 'mutate') throw new StatusError(403, 'Forbidden', 'no');
    },
    async validate(obj, old) {
      seen.push(`validate ${old ? 'update' : 'create'} name=${obj.metadata.name ?? ''} uid=${obj.metadata.uid ? 'set' : 'unset'} note=${obj.metadata.annotations?.note ?? ''}`);
      if (opts.refuse === 'validate') throw new StatusError(403, 'Forbidden', 'no');
    },
  };
}

test('admission hooks: mutating runs before the strategy validates (its changes are validated and stored), validating after, then storage', async () => {
  const seen: string[] = [];
  randoms = drawing('bcdfg');
  const made = await reg.store.create(cm(), 'default', { metadata: { generateName: 'adm-' } } as KubeObject,
    { admission: recordingAdmission(seen, { mutate: o => { o.metadata.annotations = { note: 'mutated' }; } }) });
  assert.deepEqual(seen, ['mutate create name= uid=unset', 'validate create name=adm-bcdfg uid=set note=mutated'], 'mutating sees no generated name or uid yet; validating sees both');
  assert.equal(made.metadata.annotations?.note, 'mutated');
  // a mutation the strategy finds invalid is a 422, and validating admission never runs
  seen.length = 0;
  await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('adm-bad'), { admission: recordingAdmission(seen, { mutate: o => { o.metadata.labels = { 'a b': 'x' }; } }) }), 422, 'Invalid');
  assert.deepEqual(seen, ['mutate create name=adm-bad uid=unset']);
  // updates and patches: both phases see the stored object as old
  seen.length = 0;
  await reg.store.modify(cm(), 'default', made.metadata.name!, cur => ({ ...cur, data: { k: 'v' } }), { admission: recordingAdmission(seen) });
  assert.deepEqual(seen, [`mutate update name=${made.metadata.name} uid=set`, `validate update name=${made.metadata.name} uid=set note=mutated`]);
  // an update whose body has no uid: the mutating phase sees none, the stored uid is kept after it
  seen.length = 0;
  const kept = await reg.store.modify(cm(), 'default', made.metadata.name!, cur => { delete cur.metadata.uid; return { ...cur, data: { k: 'u' } }; }, { admission: recordingAdmission(seen) });
  assert.deepEqual(seen, [`mutate update name=${made.metadata.name} uid=unset`, `validate update name=${made.metadata.name} uid=set note=mutated`]);
  assert.equal(kept.metadata.uid, made.metadata.uid);
  // a refusal in either phase writes nothing, dry run or not
  for (const refuse of ['mutate', 'validate'] as const) {
    for (const dryRun of [false, true]) {
      await rejectsUnwritten(reg.store.create(cm(), 'default', configMap(`adm-no-${refuse}`), { dryRun, admission: recordingAdmission([], { refuse }) }), 403, 'Forbidden');
      await rejectsUnwritten(reg.store.modify(cm(), 'default', made.metadata.name!, cur => ({ ...cur, data: { k: 'w' } }), { dryRun, admission: recordingAdmission([], { refuse }) }), 403, 'Forbidden');
    }
  }
  // deletes: the stored object, before it is marked or removed; a refusal keeps it
  const deleting: string[] = [];
  await rejectsUnwritten(reg.store.delete(cm(), 'default', made.metadata.name!, { admission: async cur => { deleting.push(cur.metadata.name!); throw new StatusError(403, 'Forbidden', 'no'); } }), 403, 'Forbidden');
  assert.deepEqual(deleting, [made.metadata.name]);
  await reg.store.get(cm(), 'default', made.metadata.name!);
});

test('what the mutating phase adds gets its defaults, and the status it sets is reset, as kube-apiserver defaults a patched object', async () => {
  const addSidecar = (o: KubeObject) => {
    const spec = o.spec as { containers: Array<Record<string, unknown>> };
    spec.containers.push({ name: 'sidecar', image: 'busybox' });
    o.status = { phase: 'Running' };
  };
  const made = await reg.store.create(pods(), 'default', { metadata: { name: 'mutated-pod' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } as KubeObject,
    { admission: recordingAdmission([], { mutate: addSidecar }) });
  const sidecar = (made.spec as { containers: Array<Record<string, unknown>> }).containers[1]!;
  assert.deepEqual([sidecar.terminationMessagePath, sidecar.terminationMessagePolicy, sidecar.imagePullPolicy], ['/dev/termination-log', 'File', 'Always']);
  assert.equal((made.status as { phase: string }).phase, 'Pending');
  // an update: the stored status is kept whatever the mutation did to it
  const updated = await reg.store.modify(pods(), 'default', 'mutated-pod', cur => ({ ...cur, metadata: { ...cur.metadata, labels: { a: 'b' } } }),
    { admission: recordingAdmission([], { mutate: o => { o.status = { phase: 'Failed' }; } }) });
  assert.equal((updated.status as { phase: string }).phase, 'Pending');
  // a mutation that moves the object to another namespace is refused, as BeforeCreate/BeforeUpdate refuse it
  const moved = (o: KubeObject) => { o.metadata.namespace = 'elsewhere'; };
  const err = await reg.store.create(cm(), 'default', configMap('moved'), { admission: recordingAdmission([], { mutate: moved }) }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof StatusError);
  assert.deepEqual([err.code, err.message], [400, 'the namespace of the provided object does not match the namespace sent on the request']);
  await assert.rejects(reg.store.modify(pods(), 'default', 'mutated-pod', cur => cur, { admission: recordingAdmission([], { mutate: moved }) }), { code: 400 });
});

test('create: generateName draws five characters with the injected random, and draws again on a collision', async () => {
  await reg.store.create(cm(), 'default', configMap('gen-bbbbb'));
  randoms = [...drawing('bbbbb'), ...drawing('x2z9c')];
  randomCalls = 0;
  const out = await reg.store.create(cm(), 'default', { metadata: { generateName: 'gen-' } } as KubeObject);
  assert.equal(out.metadata.name, 'gen-x2z9c', 'the first name was taken, the second was used');
  assert.equal(out.metadata.generateName, 'gen-', 'generateName is kept');
  assert.equal(randomCalls, 10, 'two names of five characters each');
  assert.equal((await reg.store.get(cm(), 'default', 'gen-x2z9c')).metadata.uid, out.metadata.uid);
});

test('create: generateName gives up after nine names that all collide, with the last one\'s AlreadyExists', async () => {
  randoms = [];
  randomCalls = 0;
  // the default random (0.5) draws alphabet[13], "r", every time: gen-rrrrr, taken below, on every attempt
  await reg.store.create(cm(), 'default', configMap('gen-rrrrr'));
  randomCalls = 0;
  await rejectsUnwritten(reg.store.create(cm(), 'default', { metadata: { generateName: 'gen-' } } as KubeObject), 409, 'AlreadyExists', 'configmaps "gen-rrrrr" already exists');
  assert.equal(randomCalls, 45, 'the first name and eight more attempts');
});

test('create: a name and a generateName both given: the name is used, no retry, no random drawn', async () => {
  randomCalls = 0;
  const out = await reg.store.create(cm(), 'default', { metadata: { name: 'both', generateName: 'ignored-' } } as KubeObject);
  assert.equal(out.metadata.name, 'both');
  await rejectsUnwritten(reg.store.create(cm(), 'default', { metadata: { name: 'both', generateName: 'ignored-' } } as KubeObject), 409, 'AlreadyExists', 'configmaps "both" already exists');
  assert.equal(randomCalls, 0);
});

test('create: a long generateName is cut to 58 characters before the suffix; neither name nor generateName is a 422', async () => {
  randoms = drawing('bcdfg');
  const out = await reg.store.create(cm(), 'default', { metadata: { generateName: 'a'.repeat(70) } } as KubeObject);
  assert.equal(out.metadata.name, 'a'.repeat(58) + 'bcdfg');
  const err = await rejectsUnwritten(reg.store.create(cm(), 'default', { metadata: {} } as KubeObject), 422, 'Invalid',
    'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  assert.deepEqual(err.status.details, { name: '', kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] });
});

test('create: names follow each resource\'s rule, worded as Kubernetes words them', async () => {
  const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('Bad_Name')), 422, 'Invalid',
    `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${subdomain}`);
  assert.equal((await reg.store.create(cm(), 'default', configMap('dotted.name'))).metadata.name, 'dotted.name', 'configmaps take subdomains');
  await rejectsUnwritten(reg.store.create(nsInfo(), undefined, { metadata: { name: 'dotted.name' } } as KubeObject), 422, 'Invalid',
    `Namespace "dotted.name" is invalid: metadata.name: Invalid value: "dotted.name": ${label}`);
  const long = 'a'.repeat(254);
  const tooLong = await rejectsUnwritten(reg.store.create(cm(), 'default', configMap(long)), 422, 'Invalid');
  assert.deepEqual(tooLong.status.details!.causes!.map(c => c.message), [`Invalid value: "${long}": must be no more than 253 characters`]);
  // RBAC names only need to be one path segment
  assert.equal((await reg.store.create(roles(), 'default', { metadata: { name: 'system:Role_1' }, rules: [] } as KubeObject)).metadata.name, 'system:Role_1');
  await rejectsUnwritten(reg.store.create(roles(), 'default', { metadata: { name: '..' }, rules: [] } as KubeObject), 422, 'Invalid',
    'Role.rbac.authorization.k8s.io ".." is invalid: metadata.name: Invalid value: "..": may not be \'..\'');
  await rejectsUnwritten(reg.store.create(roles(), 'default', { metadata: { name: 'a%b' }, rules: [] } as KubeObject), 422, 'Invalid', /metadata\.name: Invalid value: "a%b": may not contain '%'$/);
});

test('create: label keys and values and annotation keys and size are checked, every error reported at once', async () => {
  const qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const value = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  const err = await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('labels', { labels: { 'bad key': 'ok', good: '-bad' }, annotations: { 'also bad': 'x' } })), 422, 'Invalid');
  assert.equal(err.message, `ConfigMap "labels" is invalid: [metadata.labels: Invalid value: "bad key": ${qualified}, metadata.labels: Invalid value: "-bad": ${value}, metadata.annotations: Invalid value: "also bad": ${qualified}]`);
  assert.deepEqual(err.status.details!.causes!.map(c => [c.reason, c.field]), [['FieldValueInvalid', 'metadata.labels'], ['FieldValueInvalid', 'metadata.labels'], ['FieldValueInvalid', 'metadata.annotations']]);
  // annotations hold at most 256 KiB, keys and values counted together
  await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('big', { annotations: { a: 'x'.repeat(256 * 1024) } })), 422, 'Invalid',
    'ConfigMap "big" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
  const fits = await reg.store.create(cm(), 'default', configMap('fits', { annotations: { a: 'x'.repeat(256 * 1024 - 1) }, labels: { 'example.com/Key_1': 'V.1', empty: '' } }));
  assert.equal(fits.metadata.annotations!.a!.length, 256 * 1024 - 1);
  // a name error and label errors come together, the name's first
  const both = await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('Both', { labels: { '/x': 'y' } })), 422, 'Invalid');
  assert.deepEqual(both.status.details!.causes!.map(c => c.field), ['metadata.name', 'metadata.labels']);
});

test('create: generateName with a prefix that cannot make a valid name is reported on metadata.generateName too', async () => {
  randoms = drawing('bbbbb');
  const err = await rejects(reg.store.create(cm(), 'default', { metadata: { generateName: 'Bad-' } } as KubeObject), 422, 'Invalid');
  assert.deepEqual(err.status.details!.causes!.map(c => c.field), ['metadata.generateName', 'metadata.name']);
});

test('create: dry run runs every check, answers the object as it would be, and writes nothing', async () => {
  const before = await revision();
  const dry = await reg.store.create(pods(), 'default', pod('dry'), { dryRun: true });
  assert.equal(dry.metadata.name, 'dry');
  assert.match(dry.metadata.uid!, /^uid-\d+$/);
  assert.equal(dry.metadata.creationTimestamp, t0);
  assert.equal(dry.metadata.resourceVersion, undefined, 'nothing was written, so there is no version');
  assert.equal((dry.status as { phase: string }).phase, 'Pending');
  assert.equal(await revision(), before);
  await absent(pods(), 'default', 'dry');
  await reg.store.create(cm(), 'default', configMap('taken'));
  await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('taken'), { dryRun: true }), 409, 'AlreadyExists', 'configmaps "taken" already exists');
  await rejectsUnwritten(reg.store.create(cm(), 'default', configMap('Dry_Bad'), { dryRun: true }), 422, 'Invalid');
});

test('create: AlreadyExists names the resource with its group', async () => {
  await reg.store.create(deployments(), 'default', deployment('twice'));
  const err = await rejectsUnwritten(reg.store.create(deployments(), 'default', deployment('twice')), 409, 'AlreadyExists', 'deployments.apps "twice" already exists');
  assert.deepEqual(err.status.details, { name: 'twice', group: 'apps', kind: 'deployments' });
  // the same name in another namespace is another object
  assert.equal((await reg.store.create(deployments(), 'other', deployment('twice'))).metadata.namespace, 'other');
});

// ---- update (PUT) -----------------------------------------------------------------------------

test('update: the name in the body must be the name in the URL; the namespace too, when the body has one', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('put', {}, { a: '1' }));
  await rejectsUnwritten(reg.store.update(cm(), 'default', 'put', configMap('other')), 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (put)');
  await rejectsUnwritten(reg.store.update(cm(), 'default', 'put', { metadata: {} } as KubeObject), 400, 'BadRequest', 'the name of the object () does not match the name on the URL (put)');
  await rejectsUnwritten(reg.store.update(cm(), 'default', 'put', configMap('put', { namespace: 'other' })), 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  const same = await reg.store.update(cm(), 'default', 'put', configMap('put', { namespace: 'default' }, { a: '2' }));
  assert.deepEqual(same.object.data, { a: '2' });
  assert.equal(same.object.metadata.uid, live.metadata.uid);
});

test('update: a uid in the body is a precondition (409), checked before the resourceVersion', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('uidpre'));
  const tail = `Precondition failed: UID in precondition: other, UID in object meta: ${live.metadata.uid}`;
  const err = await rejectsUnwritten(reg.store.update(cm(), 'default', 'uidpre', configMap('uidpre', { uid: 'other' })), 409, 'Conflict');
  assert.ok(err.message.startsWith('Operation cannot be fulfilled on configmaps "uidpre": '), err.message);
  assert.ok(err.message.endsWith(tail), err.message);
  assert.deepEqual(err.status.details, { name: 'uidpre', kind: 'configmaps' });
  // both wrong: the uid is what is reported
  const both = await rejectsUnwritten(reg.store.update(cm(), 'default', 'uidpre', configMap('uidpre', { uid: 'other', resourceVersion: '1' })), 409, 'Conflict');
  assert.ok(both.message.endsWith(tail), both.message);
  // the right uid passes
  const ok = await reg.store.update(cm(), 'default', 'uidpre', configMap('uidpre', { uid: live.metadata.uid }, { b: '1' }));
  assert.deepEqual(ok.object.data, { b: '1' });
});

test('update: a uid precondition that fails is worded as kube-apiserver\'s storage words it', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('uidword'));
  await rejects(reg.store.update(cm(), 'default', 'uidword', configMap('uidword', { uid: 'other' })), 409, 'Conflict',
    `Operation cannot be fulfilled on configmaps "uidword": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/uidword, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${live.metadata.uid}`);
});

test('update: a stale resourceVersion is a 409 with Kubernetes\' optimistic-lock message; none means unconditional', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('rvpre', {}, { a: '1' }));
  await reg.store.update(cm(), 'default', 'rvpre', configMap('rvpre', {}, { a: '2' }));
  await rejectsUnwritten(reg.store.update(cm(), 'default', 'rvpre', configMap('rvpre', { resourceVersion: live.metadata.resourceVersion }, { a: '3' })), 409, 'Conflict',
    'Operation cannot be fulfilled on configmaps "rvpre": the object has been modified; please apply your changes to the latest version and try again');
  const current = await reg.store.get(cm(), 'default', 'rvpre');
  const ok = await reg.store.update(cm(), 'default', 'rvpre', configMap('rvpre', { resourceVersion: current.metadata.resourceVersion }, { a: '3' }));
  assert.equal(ok.object.metadata.resourceVersion, String(await revision()));
  assert.notEqual(ok.object.metadata.resourceVersion, current.metadata.resourceVersion);
});

test('update: server-owned metadata survives a PUT that drops or changes it', async () => {
  setNow(t0);
  const live = await reg.store.create(deployments(), 'default', deployment('keep'));
  setNow(at(100));
  const body = deployment('keep', 2);
  body.metadata = { name: 'keep', creationTimestamp: '1999-01-01T00:00:00Z', generation: 77, deletionTimestamp: '1999-01-01T00:00:00Z' };
  const { object, created } = await reg.store.update(deployments(), 'default', 'keep', body);
  assert.equal(created, false);
  assert.equal(object.metadata.uid, live.metadata.uid);
  assert.equal(object.metadata.creationTimestamp, t0);
  assert.equal(object.metadata.deletionTimestamp, undefined);
  assert.equal(object.metadata.generation, 2, 'the stored generation plus one for the changed spec, not what was sent');
  assert.equal(object.kind, 'Deployment');
  assert.equal(object.apiVersion, 'apps/v1');
  setNow(t0);
});

test('update: an absent object is created where the resource allows it (events), else 404', async () => {
  await rejectsUnwritten(reg.store.update(cm(), 'default', 'nope', configMap('nope')), 404, 'NotFound', 'configmaps "nope" not found');
  const made = await reg.store.update(events(), 'default', 'ev', { metadata: { name: 'ev' }, involvedObject: { kind: 'Pod', name: 'p' } } as KubeObject, { manager: 'recorder' });
  assert.equal(made.created, true);
  assert.match(made.object.metadata.uid!, /^uid-\d+$/);
  assert.equal(made.object.metadata.creationTimestamp, t0);
  assert.equal(made.object.metadata.managedFields![0]!.manager, 'recorder');
  const again = await reg.store.update(events(), 'default', 'ev', { ...made.object, message: 'hi' } as KubeObject);
  assert.equal(again.created, false, 'the second PUT updates');
  assert.equal(again.object.metadata.uid, made.object.metadata.uid);
  // a subresource never creates
  await rejectsUnwritten(reg.store.update(pods(), 'default', 'nopod', pod('nopod'), { subresource: 'status' }), 404, 'NotFound', 'pods "nopod" not found');
});

test('update: the status subresource changes status and nothing else; generation stays', async () => {
  const d = await reg.store.create(deployments(), 'default', deployment('st'));
  const body = { ...d, metadata: { ...d.metadata, labels: { sneaky: 'yes' }, annotations: { a: 'b' } }, spec: { ...(d.spec as object), replicas: 9 }, status: { replicas: 1, observedGeneration: 1 } } as KubeObject;
  const { object } = await reg.store.update(deployments(), 'default', 'st', body, { subresource: 'status' });
  assert.deepEqual(object.status, { replicas: 1, observedGeneration: 1 });
  assert.deepEqual(object.spec, d.spec);
  assert.equal(object.metadata.labels, undefined);
  assert.equal(object.metadata.annotations, undefined);
  assert.equal(object.metadata.generation, 1);
  assert.deepEqual(await reg.store.get(deployments(), 'default', 'st'), object);
});

test('update: the main resource never changes status, even when the body has one', async () => {
  const d = await reg.store.create(deployments(), 'default', deployment('main'));
  const withStatus = await reg.store.update(deployments(), 'default', 'main', { ...d, metadata: { name: 'main' }, status: { replicas: 1 } } as KubeObject, { subresource: 'status' });
  const { object } = await reg.store.update(deployments(), 'default', 'main', { ...withStatus.object, metadata: { name: 'main', labels: { x: 'y' } }, status: { replicas: 50 } } as KubeObject);
  assert.deepEqual(object.status, { replicas: 1 }, 'the stored status is kept');
  assert.deepEqual(object.metadata.labels, { x: 'y' }, 'the rest of the write is made');
  const dropped = await reg.store.update(deployments(), 'default', 'main', { ...object, status: undefined } as KubeObject);
  assert.deepEqual(dropped.object.status, { replicas: 1 }, 'nor is status removed by leaving it out');
});

test('update: finalize changes spec.finalizers of a namespace and nothing else; the main resource cannot', async () => {
  const ns = await reg.store.create(nsInfo(), undefined, { metadata: { name: 'fin2' }, spec: { finalizers: ['kubernetes', 'example.com/x'] } } as KubeObject);
  const viaMain = await reg.store.update(nsInfo(), undefined, 'fin2', { ...ns, metadata: { name: 'fin2', labels: { a: 'b' } }, spec: { finalizers: [] } } as KubeObject);
  assert.deepEqual((viaMain.object.spec as { finalizers: string[] }).finalizers, ['kubernetes', 'example.com/x']);
  assert.deepEqual(viaMain.object.metadata.labels, { a: 'b', 'kubernetes.io/metadata.name': 'fin2' }, 'the name label is always kept');
  const viaFinalize = await reg.store.update(nsInfo(), undefined, 'fin2',
    { metadata: { name: 'fin2', labels: { c: 'd' } }, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } } as KubeObject, { subresource: 'finalize' });
  assert.deepEqual(viaFinalize.object.spec, { finalizers: ['example.com/x'] });
  assert.deepEqual(viaFinalize.object.metadata.labels, viaMain.object.metadata.labels);
  assert.deepEqual(viaFinalize.object.status, { phase: 'Active' });
});

test('update: generation follows spec changes only, for pods as for workloads', async () => {
  const p = await reg.store.create(pods(), 'default', pod('genp'));
  const labelled = await reg.store.update(pods(), 'default', 'genp', { ...p, metadata: { ...p.metadata, labels: { a: 'b' }, annotations: { c: 'd' } } } as KubeObject);
  assert.equal(labelled.object.metadata.generation, 1, 'metadata is not spec');
  const spec = labelled.object.spec as { containers: Array<{ image: string }> };
  const imaged = await reg.store.update(pods(), 'default', 'genp', { ...labelled.object, spec: { ...spec, containers: [{ ...spec.containers[0], image: 'nginx' }] } } as KubeObject);
  assert.equal(imaged.object.metadata.generation, 2);
  const status = await reg.store.update(pods(), 'default', 'genp', { ...imaged.object, status: { phase: 'Running' } } as KubeObject, { subresource: 'status' });
  assert.equal(status.object.metadata.generation, 2, 'status is not spec');
});

test('update: nothing changed writes nothing: the same resourceVersion, the storage revision unmoved', async () => {
  setNow(t0);
  const live = await reg.store.create(cm(), 'default', configMap('noop', {}, { a: '1' }), { manager: 'first' });
  setNow(at(60));
  const before = await revision();
  for (const manager of [undefined, 'first', 'second']) {
    const same = await reg.store.update(cm(), 'default', 'noop', live, { manager });
    assert.equal(same.object.metadata.resourceVersion, live.metadata.resourceVersion, String(manager));
    assert.deepEqual(same.object.metadata.managedFields, live.metadata.managedFields, `${manager}: no entry added, no time moved`);
  }
  const status = await reg.store.create(pods(), 'default', pod('noop'));
  await reg.store.update(pods(), 'default', 'noop', status, { subresource: 'status' });
  assert.equal(await revision(), before + 1, 'only the pod was written');
  const modified = await reg.store.modify(cm(), 'default', 'noop', c => c);
  assert.equal(modified.metadata.resourceVersion, live.metadata.resourceVersion);
  setNow(t0);
});

test('update: no finalizer may be added to an object being deleted', async () => {
  await reg.store.create(cm(), 'default', configMap('fz', { finalizers: ['example.com/a'] }));
  const marked = await reg.store.delete(cm(), 'default', 'fz');
  const err = await rejectsUnwritten(reg.store.update(cm(), 'default', 'fz', { ...marked.object, metadata: { ...marked.object.metadata, finalizers: ['example.com/a', 'example.com/b'] } } as KubeObject), 422, 'Invalid',
    /^ConfigMap "fz" is invalid: metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted/);
  assert.deepEqual(err.status.details!.causes!.map(c => [c.reason, c.field]), [['FieldValueForbidden', 'metadata.finalizers']]);
  // reordering or removing is fine
  const kept = await reg.store.update(cm(), 'default', 'fz', { ...marked.object, data: { x: 'y' } } as KubeObject);
  assert.deepEqual(kept.object.data, { x: 'y' });
  assert.equal(kept.object.metadata.deletionTimestamp, marked.object.metadata.deletionTimestamp, 'deletionTimestamp is kept');
});

test('update: a refused new finalizer names the finalizers, as Kubernetes does', async () => {
  await reg.store.create(cm(), 'default', configMap('fzw', { finalizers: ['example.com/a'] }));
  const marked = await reg.store.delete(cm(), 'default', 'fzw');
  await rejects(reg.store.update(cm(), 'default', 'fzw', { ...marked.object, metadata: { ...marked.object.metadata, finalizers: ['example.com/a', 'example.com/b'] } } as KubeObject), 422, 'Invalid',
    'ConfigMap "fzw" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}');
});

test('update: dry run answers the new object and writes nothing', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('dryput', {}, { a: '1' }));
  const before = await revision();
  const dry = await reg.store.update(cm(), 'default', 'dryput', configMap('dryput', {}, { a: '2' }), { dryRun: true });
  assert.deepEqual(dry.object.data, { a: '2' });
  assert.equal(await revision(), before);
  assert.deepEqual((await reg.store.get(cm(), 'default', 'dryput')).data, live.data);
  const dryCreate = await reg.store.update(events(), 'default', 'dryev', { metadata: { name: 'dryev' }, involvedObject: {} } as KubeObject, { dryRun: true });
  assert.equal(dryCreate.created, true);
  assert.equal(await revision(), before);
  await absent(events(), 'default', 'dryev');
});

// ---- modify (read-modify-write) ----------------------------------------------------------------

test('modify: the change sees the current object; a concurrent write makes it run again on the newer one', async () => {
  await reg.store.create(cm(), 'default', configMap('race', {}, { n: '0' }));
  const seen: string[] = [];
  const out = await reg.store.modify(cm(), 'default', 'race', async cur => {
    seen.push((cur.data as { n: string }).n);
    if (seen.length === 1) await reg.store.modify(cm(), 'default', 'race', c => ({ ...c, data: { n: '1' } }));
    const { resourceVersion: _rv, ...meta } = cur.metadata;
    return { ...cur, metadata: meta, data: { n: String(Number((cur.data as { n: string }).n) + 10) } };
  });
  assert.deepEqual(seen, ['0', '1']);
  assert.deepEqual(out.data, { n: '11' }, 'no lost update');
});

test('modify: the change keeping the resourceVersion it was given makes it a precondition: a conflict is not retried', async () => {
  await reg.store.create(cm(), 'default', configMap('pinned'));
  let calls = 0;
  await rejects(reg.store.modify(cm(), 'default', 'pinned', async cur => {
    calls++;
    await reg.store.modify(cm(), 'default', 'pinned', c => ({ ...c, data: { other: String(calls) } }));
    return { ...cur, data: { mine: 'x' } };
  }), 409, 'Conflict', 'Operation cannot be fulfilled on configmaps "pinned": the object has been modified; please apply your changes to the latest version and try again');
  assert.equal(calls, 1);
  assert.deepEqual((await reg.store.get(cm(), 'default', 'pinned')).data, { other: '1' });
});

test('modify: a change that loses every race gives up after six tries with a Conflict', async () => {
  await reg.store.create(cm(), 'default', configMap('loser'));
  let calls = 0;
  await rejects(reg.store.modify(cm(), 'default', 'loser', async cur => {
    calls++;
    await reg.store.modify(cm(), 'default', 'loser', c => ({ ...c, data: { winner: String(calls) } }));
    const { resourceVersion: _rv, ...meta } = cur.metadata;
    return { ...cur, metadata: meta, data: { loser: 'x' } };
  }), 409, 'Conflict', 'Operation cannot be fulfilled on configmaps "loser": the object has been modified; please apply your changes to the latest version and try again');
  assert.equal(calls, 6);
});

test('modify: a stale resourceVersion set by the change is a 409; a changed uid is 422 immutable; another name is 400; absent is 404', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('mod'));
  await rejectsUnwritten(reg.store.modify(cm(), 'default', 'mod', cur => ({ ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } })), 409, 'Conflict',
    'Operation cannot be fulfilled on configmaps "mod": the object has been modified; please apply your changes to the latest version and try again');
  const err = await rejectsUnwritten(reg.store.modify(cm(), 'default', 'mod', cur => ({ ...cur, metadata: { ...cur.metadata, uid: 'changed' } })), 422, 'Invalid',
    'ConfigMap "mod" is invalid: metadata.uid: Invalid value: "changed": field is immutable');
  assert.deepEqual(err.status.details!.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "changed": field is immutable', field: 'metadata.uid' }]);
  await rejectsUnwritten(reg.store.modify(cm(), 'default', 'mod', cur => ({ ...cur, metadata: { ...cur.metadata, name: 'else' } })), 400, 'BadRequest', 'the name of the object (else) does not match the name on the URL (mod)');
  await rejects(reg.store.modify(cm(), 'default', 'ghost', cur => cur), 404, 'NotFound', 'configmaps "ghost" not found');
  // a change that leaves out uid and name gets them back
  const out = await reg.store.modify(cm(), 'default', 'mod', cur => ({ metadata: { labels: { a: 'b' } }, data: cur.data } as KubeObject));
  assert.equal(out.metadata.uid, live.metadata.uid);
  assert.equal(out.metadata.name, 'mod');
  assert.equal(out.metadata.creationTimestamp, live.metadata.creationTimestamp);
});

// ---- delete -------------------------------------------------------------------------------------

test('delete: preconditions that fail are 409s and delete nothing; ones that hold delete', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('pre'));
  const uidErr = await rejectsUnwritten(reg.store.delete(cm(), 'default', 'pre', { preconditions: { uid: 'x' } }), 409, 'Conflict');
  assert.match(uidErr.message, /^Operation cannot be fulfilled on /);
  assert.match(uidErr.message, new RegExp(`UID in (the )?precondition:? \\(?x\\)?.*UID in (object meta|record):? \\(?${live.metadata.uid}\\)?`));
  const rvErr = await rejectsUnwritten(reg.store.delete(cm(), 'default', 'pre', { preconditions: { resourceVersion: '1' } }), 409, 'Conflict');
  assert.match(rvErr.message, new RegExp(`ResourceVersion in (the )?precondition:? \\(?1\\)?.*ResourceVersion in (object meta|record):? \\(?${live.metadata.resourceVersion}\\)?`));
  await reg.store.get(cm(), 'default', 'pre');
  const gone = await reg.store.delete(cm(), 'default', 'pre', { preconditions: { uid: live.metadata.uid, resourceVersion: live.metadata.resourceVersion } });
  assert.equal(gone.deleted, true);
  assert.equal(gone.object.metadata.uid, live.metadata.uid, 'the deleted object is answered');
  await absent(cm(), 'default', 'pre');
  await rejects(reg.store.delete(cm(), 'default', 'pre'), 404, 'NotFound', 'configmaps "pre" not found');
});

test('delete: preconditions are worded as Kubernetes\' BeforeDelete words them', async () => {
  const live = await reg.store.create(cm(), 'default', configMap('preword'));
  const uidErr = await rejects(reg.store.delete(cm(), 'default', 'preword', { preconditions: { uid: 'x' } }), 409, 'Conflict',
    `Operation cannot be fulfilled on ConfigMap "preword": the UID in the precondition (x) does not match the UID in record (${live.metadata.uid}). The object might have been deleted and then recreated`);
  assert.deepEqual(uidErr.status.details, { name: 'preword', kind: 'ConfigMap' });
  await rejects(reg.store.delete(cm(), 'default', 'preword', { preconditions: { resourceVersion: '1' } }), 409, 'Conflict',
    `Operation cannot be fulfilled on ConfigMap "preword": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${live.metadata.resourceVersion}). The object might have been modified`);
});

test('delete: a pod bound to a node is marked with its grace period (spec\'s, else 30 s) and stays; unbound or finished pods go at once', async () => {
  setNow(t0);
  const p = await reg.store.create(pods(), 'default', pod('bound', { nodeName: 'n1', terminationGracePeriodSeconds: 12 }));
  const before = await revision();
  const marked = await reg.store.delete(pods(), 'default', 'bound');
  assert.equal(marked.deleted, false);
  assert.equal(marked.object.metadata.deletionGracePeriodSeconds, 12, 'the pod\'s own terminationGracePeriodSeconds');
  assert.equal(marked.object.metadata.deletionTimestamp, at(12));
  assert.equal(marked.object.metadata.resourceVersion, String(before + 1));
  assert.deepEqual(marked.object.status, p.status, 'status is the node agent\'s to change');
  assert.deepEqual(await reg.store.get(pods(), 'default', 'bound'), marked.object);

  await reg.store.create(pods(), 'default', pod('default-grace', { nodeName: 'n1' }));
  const dflt = await reg.store.delete(pods(), 'default', 'default-grace');
  assert.equal(dflt.object.metadata.deletionGracePeriodSeconds, 30, 'the defaulted terminationGracePeriodSeconds');

  await reg.store.create(pods(), 'default', pod('unbound'));
  assert.equal((await reg.store.delete(pods(), 'default', 'unbound', { gracePeriodSeconds: 60 })).deleted, true, 'no node, nothing to stop');
  await absent(pods(), 'default', 'unbound');

  const done = await reg.store.create(pods(), 'default', pod('done', { nodeName: 'n1' }));
  await reg.store.update(pods(), 'default', 'done', { ...done, status: { phase: 'Succeeded' } } as KubeObject, { subresource: 'status' });
  assert.equal((await reg.store.delete(pods(), 'default', 'done')).deleted, true, 'a finished pod has nothing to stop');
});

test('delete: a shorter grace period replaces a longer one; a longer or equal one changes nothing; zero removes', async () => {
  setNow(t0);
  await reg.store.create(pods(), 'default', pod('shorten', { nodeName: 'n1' }));
  await reg.store.delete(pods(), 'default', 'shorten', { gracePeriodSeconds: 60 });
  const written = await revision();
  for (const grace of [60, 90]) {
    const same = await reg.store.delete(pods(), 'default', 'shorten', { gracePeriodSeconds: grace });
    assert.equal(same.deleted, false);
    assert.equal(same.object.metadata.deletionGracePeriodSeconds, 60, String(grace));
    assert.equal(same.object.metadata.deletionTimestamp, at(60));
  }
  assert.equal(await revision(), written, 'nothing written for a grace period that is not shorter');
  const shorter = await reg.store.delete(pods(), 'default', 'shorten', { gracePeriodSeconds: 10 });
  assert.equal(shorter.object.metadata.deletionGracePeriodSeconds, 10);
  assert.equal(shorter.object.metadata.deletionTimestamp, at(10));
  const gone = await reg.store.delete(pods(), 'default', 'shorten', { gracePeriodSeconds: 0 });
  assert.equal(gone.deleted, true);
  await absent(pods(), 'default', 'shorten');
});

test('delete: a second delete that names no grace period leaves a pending graceful deletion as it is', async () => {
  setNow(t0);
  await reg.store.create(pods(), 'default', pod('pending', { nodeName: 'n1' }));
  await reg.store.delete(pods(), 'default', 'pending', { gracePeriodSeconds: 60 });
  const written = await revision();
  const again = await reg.store.delete(pods(), 'default', 'pending');
  assert.equal(again.object.metadata.deletionGracePeriodSeconds, 60);
  assert.equal(again.object.metadata.deletionTimestamp, at(60));
  assert.equal(await revision(), written);
});

test('delete: a shorter grace period moves deletionTimestamp back from the first one, as Kubernetes computes it', async () => {
  setNow(t0);
  await reg.store.create(pods(), 'default', pod('shorten-later', { nodeName: 'n1' }));
  await reg.store.delete(pods(), 'default', 'shorten-later', { gracePeriodSeconds: 60 });
  setNow(at(20));
  const shorter = await reg.store.delete(pods(), 'default', 'shorten-later', { gracePeriodSeconds: 30 });
  setNow(t0);
  assert.equal(shorter.object.metadata.deletionGracePeriodSeconds, 30);
  assert.equal(shorter.object.metadata.deletionTimestamp, at(30));
});

test('delete: a negative grace period counts as one second, as in Kubernetes', async () => {
  await reg.store.create(pods(), 'default', pod('negative', { nodeName: 'n1' }));
  const out = await reg.store.delete(pods(), 'default', 'negative', { gracePeriodSeconds: -5 });
  assert.equal(out.deleted, false);
  assert.equal(out.object.metadata.deletionGracePeriodSeconds, 1);
});

test('delete: the first mark for deletion bumps a tracked generation, as Kubernetes does', async () => {
  await reg.store.create(deployments(), 'default', { ...deployment('gendel'), metadata: { name: 'gendel', finalizers: ['example.com/hold'] } } as KubeObject);
  const marked = await reg.store.delete(deployments(), 'default', 'gendel');
  assert.equal(marked.object.metadata.generation, 2);
  await reg.store.create(pods(), 'default', pod('gendel', { nodeName: 'n1' }));
  assert.equal((await reg.store.delete(pods(), 'default', 'gendel')).object.metadata.generation, 2);
});

test('delete: finalizers keep the object, marked, until an update removes the last one; then it is gone', async () => {
  setNow(t0);
  await reg.store.create(cm(), 'default', configMap('held', { finalizers: ['example.com/a', 'example.com/b'] }));
  setNow(at(5));
  const marked = await reg.store.delete(cm(), 'default', 'held');
  assert.equal(marked.deleted, false);
  assert.equal(marked.object.metadata.deletionTimestamp, at(5), 'deleted now; the finalizers decide when it goes');
  assert.equal(marked.object.metadata.deletionGracePeriodSeconds, 0);
  // a second delete changes nothing
  const before = await revision();
  const again = await reg.store.delete(cm(), 'default', 'held');
  assert.equal(again.deleted, false);
  assert.equal(again.object.metadata.resourceVersion, marked.object.metadata.resourceVersion);
  assert.equal(await revision(), before);
  // one finalizer removed: still there
  const one = await reg.store.update(cm(), 'default', 'held', { ...marked.object, metadata: { ...marked.object.metadata, finalizers: ['example.com/b'] } } as KubeObject);
  assert.deepEqual(one.object.metadata.finalizers, ['example.com/b']);
  assert.equal(one.object.metadata.deletionTimestamp, at(5));
  // dry run of removing the last: still there
  await reg.store.update(cm(), 'default', 'held', { ...one.object, metadata: { ...one.object.metadata, finalizers: [] } } as KubeObject, { dryRun: true });
  await reg.store.get(cm(), 'default', 'held');
  // the last removed by a PUT: gone
  const last = await reg.store.update(cm(), 'default', 'held', { ...one.object, metadata: { ...one.object.metadata, finalizers: [] } } as KubeObject);
  assert.equal(last.created, false);
  assert.equal(last.object.metadata.name, 'held');
  await absent(cm(), 'default', 'held');
  setNow(t0);
});

test('delete: a namespace turns Terminating under its spec finalizer and goes when finalize empties it', async () => {
  setNow(t0);
  await reg.store.create(nsInfo(), undefined, { metadata: { name: 'doomed' } } as KubeObject);
  assert.equal(reg.store.returnsDeletedObject(nsInfo()), true, 'a namespace delete answers the namespace');
  const marked = await reg.store.delete(nsInfo(), undefined, 'doomed');
  assert.equal(marked.deleted, false);
  assert.deepEqual(marked.object.status, { phase: 'Terminating' });
  assert.equal(marked.object.metadata.deletionTimestamp, t0);
  const finalized = await reg.store.update(nsInfo(), undefined, 'doomed', { ...marked.object, spec: { finalizers: [] } } as KubeObject, { subresource: 'finalize' });
  assert.equal(finalized.object.metadata.name, 'doomed');
  await absent(nsInfo(), undefined, 'doomed');
});

test('delete: dry run answers what would happen and writes nothing', async () => {
  await reg.store.create(pods(), 'default', pod('drydel', { nodeName: 'n1' }));
  await reg.store.create(cm(), 'default', configMap('drydel', { finalizers: ['example.com/a'] }));
  await reg.store.create(cm(), 'default', configMap('drydel2'));
  const before = await revision();
  const graceful = await reg.store.delete(pods(), 'default', 'drydel', { dryRun: true });
  assert.equal(graceful.deleted, false);
  assert.equal(graceful.object.metadata.deletionGracePeriodSeconds, 30);
  const held = await reg.store.delete(cm(), 'default', 'drydel', { dryRun: true });
  assert.equal(held.deleted, false);
  assert.ok(held.object.metadata.deletionTimestamp);
  const plain = await reg.store.delete(cm(), 'default', 'drydel2', { dryRun: true });
  assert.equal(plain.deleted, true);
  assert.equal(await revision(), before);
  assert.equal((await reg.store.get(pods(), 'default', 'drydel')).metadata.deletionTimestamp, undefined);
  assert.equal((await reg.store.get(cm(), 'default', 'drydel')).metadata.deletionTimestamp, undefined);
  await reg.store.get(cm(), 'default', 'drydel2');
});

// ---- managed fields ---------------------------------------------------------------------------

test('managed fields: a named manager\'s write is an Update entry, with the subresource it went through', async () => {
  setNow(t0);
  const created = await reg.store.create(deployments(), 'default', deployment('mf'), { manager: 'kubectl-create' });
  assert.equal(created.metadata.managedFields!.length, 1);
  const entry = created.metadata.managedFields![0]!;
  assert.deepEqual([entry.manager, entry.operation, entry.apiVersion, entry.time, entry.fieldsType, entry.subresource], ['kubectl-create', 'Update', 'apps/v1', t0, 'FieldsV1', undefined]);
  assert.ok('f:spec' in (entry.fieldsV1 as object));
  assert.ok(!('f:status' in (entry.fieldsV1 as object)), 'the main resource does not own status');

  setNow(at(30));
  const status = await reg.store.update(deployments(), 'default', 'mf', { ...created, status: { replicas: 1 } } as KubeObject, { subresource: 'status', manager: 'controller' });
  const byStatus = status.object.metadata.managedFields!.find(m => m.manager === 'controller')!;
  assert.deepEqual([byStatus.operation, byStatus.subresource, byStatus.time], ['Update', 'status', at(30)]);
  // status was {} already (the server's): only the field this write added is the controller's
  assert.deepEqual(byStatus.fieldsV1, { 'f:status': { 'f:replicas': {} } });
  const first = status.object.metadata.managedFields!.find(m => m.manager === 'kubectl-create')!;
  assert.equal(first.time, t0, 'the other manager\'s entry is left as it was');

  // the same manager through the main resource and the subresource: two entries
  const labelled = await reg.store.modify(deployments(), 'default', 'mf', c => ({ ...c, metadata: { ...c.metadata, labels: { by: 'controller' } } }), { manager: 'controller' });
  const controller = labelled.metadata.managedFields!.filter(m => m.manager === 'controller').map(m => m.subresource ?? '');
  assert.deepEqual(controller.sort(), ['', 'status']);
  setNow(t0);
});

test('managed fields: an Apply write keeps the managed fields it carries; no manager records nothing', async () => {
  const applied = { manager: 'applier', operation: 'Apply', apiVersion: 'v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } };
  const created = await reg.store.create(cm(), 'default', { metadata: { name: 'ssa', managedFields: [applied] }, data: { a: '1' } } as KubeObject, { manager: 'applier', operation: 'Apply' });
  assert.deepEqual(created.metadata.managedFields, [applied]);
  const changed = await reg.store.modify(cm(), 'default', 'ssa', c => ({ ...c, data: { a: '2' } }), { manager: 'applier', operation: 'Apply' });
  assert.deepEqual(changed.metadata.managedFields, [applied]);
  const anonymous = await reg.store.create(cm(), 'default', configMap('anon', {}, { a: '1' }));
  assert.equal(anonymous.metadata.managedFields, undefined);
  // through the status subresource too (kubectl apply --server-side --subresource=status)
  await reg.store.create(deployments(), 'default', { metadata: { name: 'ssa-status' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } as KubeObject);
  const status = { manager: 'applier', operation: 'Apply', apiVersion: 'apps/v1', time: t0, fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' };
  const viaStatus = await reg.store.modify(deployments(), 'default', 'ssa-status', c => ({ ...c, metadata: { ...c.metadata, managedFields: [...(c.metadata.managedFields ?? []), status] }, status: { replicas: 3 } }), { manager: 'applier', operation: 'Apply', subresource: 'status' });
  assert.deepEqual(viaStatus.metadata.managedFields?.find(m => m.manager === 'applier'), status);
  assert.equal((viaStatus.status as { replicas?: number }).replicas, 3);
});

// ---- get, list, watch ---------------------------------------------------------------------------

test('get: now and at a past revision; as JSON bytes the same object', async () => {
  const v1 = await reg.store.create(cm(), 'default', configMap('hist', {}, { v: '1' }));
  const v2 = (await reg.store.update(cm(), 'default', 'hist', configMap('hist', {}, { v: '2' }))).object;
  assert.deepEqual(await reg.store.get(cm(), 'default', 'hist'), v2);
  const past = await reg.store.get(cm(), 'default', 'hist', Number(v1.metadata.resourceVersion));
  assert.deepEqual(past.data, { v: '1' });
  assert.equal(past.metadata.resourceVersion, v1.metadata.resourceVersion);
  assert.deepEqual(JSON.parse((await reg.store.getJson(cm(), 'default', 'hist')).toString()), v2);
  await rejects(reg.store.getJson(cm(), 'default', 'nothing'), 404, 'NotFound', 'configmaps "nothing" not found');
  await rejects(reg.store.get(cm(), 'other', 'hist'), 404, 'NotFound', 'configmaps "hist" not found');
});

test('list: one namespace or all, paged at one revision with continue and remainingItemCount', async () => {
  for (const n of ['p1', 'p2', 'p3']) await reg.store.create(cm(), 'other', configMap(`page-${n}`));
  const all = await reg.store.list(cm(), 'other');
  assert.equal(all.kind, 'ConfigMapList');
  assert.equal(all.apiVersion, 'v1');
  assert.equal(all.metadata.resourceVersion, String(await revision()));
  assert.ok(all.items.every(i => i.metadata.namespace === 'other'));
  const names = all.items.map(i => i.metadata.name!);
  assert.deepEqual(names, [...names].sort(), 'in key order');
  assert.ok(names.includes('page-p1') && names.includes('page-p3'));

  const first = await reg.store.list(cm(), 'other', { limit: 2 });
  assert.equal(first.items.length, 2);
  assert.equal(first.metadata.remainingItemCount, names.length - 2);
  assert.ok(first.metadata.continue);
  await reg.store.create(cm(), 'other', configMap('page-p4'));
  const rest: KubeList[] = [];
  let token: string | undefined = first.metadata.continue;
  while (token) {
    const page = await reg.store.list(cm(), 'other', { limit: 2, continueToken: token });
    assert.equal(page.metadata.resourceVersion, first.metadata.resourceVersion, 'every page at the first page\'s revision');
    rest.push(page);
    token = page.metadata.continue;
  }
  assert.deepEqual([...first.items, ...rest.flatMap(p => p.items)].map(i => i.metadata.name), names, 'page-p4 came after the list began');

  const everywhere = await reg.store.list(cm(), undefined);
  assert.ok(everywhere.items.some(i => i.metadata.namespace === 'default') && everywhere.items.some(i => i.metadata.namespace === 'other'));
  // the spliced bytes are the list as Go writes it: items of a typed list carry no kind or apiVersion
  assert.equal((await reg.store.listJson(cm(), 'other')).toString(), goJsonBody(await reg.store.list(cm(), 'other')));
});

test('a JSON list of more than a slice pauses between slices and is the same bytes', async () => {
  const n = itemsPerSlice * 2 + 1;
  await Promise.all(Array.from({ length: n }, (_, i) => reg.store.create(cm(), 'sliced', configMap(`s-${String(i).padStart(5, '0')}`))));
  let pauses = 0;
  const sliced = await reg.store.listJson(cm(), 'sliced', { pause: async () => { pauses++; } });
  assert.equal(pauses, 2, 'one pause before each slice after the first');
  assert.equal(sliced.toString(), (await reg.store.listJson(cm(), 'sliced')).toString());
  assert.equal(sliced.toString(), goJsonBody(await reg.store.list(cm(), 'sliced')));
  assert.equal((JSON.parse(sliced.toString()) as KubeList).items.length, n);
  // written into the one buffer it is given, sized before the first slice
  const given: Buffer[] = [];
  const into = await reg.store.listJson(cm(), 'sliced', { pause: async () => {}, alloc: size => { const b = Buffer.alloc(size); given.push(b); return b; } });
  assert.equal(into.buffer, given[0]!.buffer);
  assert.equal(into.byteOffset, 0);
  assert.equal(into.toString(), sliced.toString());
  assert.equal(given.length, 1, 'the slices are written into the answer itself');
  // a list of one slice never pauses
  pauses = 0;
  await reg.store.listJson(cm(), 'sliced', { limit: itemsPerSlice, pause: async () => { pauses++; } });
  assert.equal(pauses, 0);
});

/** a watch sink whose events can be awaited */
function collector() {
  const seen: Array<[WatchEventType, KubeObject]> = [];
  let synced: number | undefined;
  let wake: (() => void) | undefined;
  return {
    seen,
    get synced() { return synced; },
    sink: {
      event: (type: WatchEventType, obj: KubeObject | Record<string, unknown>) => { seen.push([type, obj as KubeObject]); wake?.(); },
      end: () => {},
      synced: (rv: number) => { synced = rv; },
    },
    /** resolves once n events have arrived (the test's own timeout ends a hang) */
    async until(n: number) {
      while (seen.length < n) await new Promise<void>(resolve => { wake = resolve; });
    },
  };
}

test('watch: from a revision, each write as ADDED, MODIFIED, DELETED, in order, only for the namespace watched', async () => {
  const c = collector();
  const w = await reg.store.watch(cm(), 'other', { afterRevision: await revision() }, c.sink);
  try {
    await reg.store.create(cm(), 'default', configMap('w-elsewhere'));
    const made = await reg.store.create(cm(), 'other', configMap('w1'));
    const changed = await reg.store.modify(cm(), 'other', 'w1', o => ({ ...o, data: { x: '1' } }));
    const removed = await reg.store.delete(cm(), 'other', 'w1');
    await c.until(3);
    assert.deepEqual(c.seen.map(([t, o]) => [t, o.metadata.name, o.metadata.resourceVersion]), [
      ['ADDED', 'w1', made.metadata.resourceVersion],
      ['MODIFIED', 'w1', changed.metadata.resourceVersion],
      ['DELETED', 'w1', String(await revision())],
    ]);
    assert.deepEqual(c.seen[2]![1].data, { x: '1' }, 'a DELETED event carries the last state');
    assert.equal(removed.deleted, true);
  } finally {
    w.cancel();
  }
});

test('watch: with no revision the current objects come first as ADDED, then synced with the list\'s revision', async () => {
  await reg.store.create(cm(), 'default', configMap('sel-a', { labels: { pick: 'yes' } }));
  const c = collector();
  const w = await reg.store.watch(cm(), 'default', { filter: o => o.metadata.labels?.pick === 'yes' }, c.sink);
  try {
    assert.deepEqual(c.seen.map(([t, o]) => [t, o.metadata.name]), [['ADDED', 'sel-a']]);
    assert.equal(c.synced, await revision());
    // a filter: an object entering the selection is ADDED, leaving it DELETED
    await reg.store.create(cm(), 'default', configMap('sel-b'));
    await reg.store.modify(cm(), 'default', 'sel-b', o => ({ ...o, metadata: { ...o.metadata, labels: { pick: 'yes' } } }));
    await reg.store.modify(cm(), 'default', 'sel-a', o => ({ ...o, metadata: { ...o.metadata, labels: { pick: 'no' } } }));
    await c.until(3);
    assert.deepEqual(c.seen.map(([t, o]) => [t, o.metadata.name]), [['ADDED', 'sel-a'], ['ADDED', 'sel-b'], ['DELETED', 'sel-a']]);
    assert.deepEqual(c.seen[2]![1].metadata.labels, { pick: 'no' }, 'the object as it left the selection');
  } finally {
    w.cancel();
  }
});

test('awaitRevision: at once for a revision reached; a 504 with Kubernetes\' words for one that never comes', async () => {
  const rv = await revision();
  await reg.store.awaitRevision(rv);
  await rejects(reg.store.awaitRevision(rv + 100, 50), 504, 'Timeout', `Too large resource version: ${rv + 100}, current: ${rv}`);
});
