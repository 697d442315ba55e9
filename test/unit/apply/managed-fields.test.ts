import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyConfiguration, recordUpdate, type ManagerContext } from '../../../src/apply/index.ts';
import { FieldSet, pathString } from '../../../src/apply/field-set.ts';
import { StatusError } from '../../../src/api/status.ts';

type Obj = Record<string, any>;
const apply = (...a: Parameters<typeof applyConfiguration>): Obj => applyConfiguration(...a) as Obj;
// a subresource write names the fields it may own, as the registry's subresource modules declare them
const ctx = (manager: string, subresource = '', owns?: string[][]): ManagerContext => ({ definition: 'io.k8s.api.apps.v1.Deployment', apiVersion: 'apps/v1', manager, subresource, owns, now: '2026-11-22T10:00:00Z' });
const podCtx = (manager: string): ManagerContext => ({ ...ctx(manager), definition: 'io.k8s.api.core.v1.Pod', apiVersion: 'v1' });

const deployment = (containers: Obj[], extra: Obj = {}): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers } }, ...extra },
});
const owned = (obj: Obj, manager: string, operation = 'Apply') => {
  const e = (obj.metadata.managedFields as Obj[]).find(x => x.manager === manager && x.operation === operation);
  return e ? [...FieldSet.fromFieldsV1(e.fieldsV1).paths()].map(pathString) : [];
};

test('FieldsV1 round-trips, with "." for a member that has children, keys sorted', () => {
  const v1 = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } };
  const set = FieldSet.fromFieldsV1(v1);
  assert.deepEqual(set.toFieldsV1(), v1);
  assert.deepEqual([...set.paths()].map(pathString), ['.metadata.labels', '.metadata.labels.app', '.spec.containers[name="web"]', '.spec.containers[name="web"].image', '.spec.containers[name="web"].name']);
});

test('an update owns what it changed; another update takes over changed fields only', () => {
  const created = deployment([{ name: 'web', image: 'a' }], { replicas: 1 });
  recordUpdate(undefined, created, ctx('kubectl-create'));
  assert.deepEqual(created.metadata.managedFields.map((e: Obj) => [e.manager, e.operation, e.time]), [['kubectl-create', 'Update', '2026-11-22T10:00:00Z']]);
  assert.ok(owned(created, 'kubectl-create', 'Update').includes('.spec.replicas'));
  assert.ok(!owned(created, 'kubectl-create', 'Update').some(p => p.startsWith('.metadata.name')), 'server-set metadata is nobody\'s');
  const scaled = structuredClone(created);
  scaled.spec.replicas = 3;
  recordUpdate(created, scaled, { ...ctx('hpa'), now: '2026-11-22T11:00:00Z' });
  assert.deepEqual(owned(scaled, 'hpa', 'Update'), ['.spec.replicas']);
  assert.ok(!owned(scaled, 'kubectl-create', 'Update').includes('.spec.replicas'));
  assert.ok(owned(scaled, 'kubectl-create', 'Update').includes('.spec.template.spec.containers[name="web"].image'));
  // a status write is recorded under the status subresource and owns status only
  const withStatus = structuredClone(scaled);
  withStatus.status = { replicas: 3 };
  recordUpdate(scaled, withStatus, ctx('controller', 'status', [['status']]));
  const entry = withStatus.metadata.managedFields.find((e: Obj) => e.manager === 'controller');
  assert.equal(entry.subresource, 'status');
  assert.deepEqual(entry.fieldsV1, { 'f:status': { 'f:replicas': {} } });
});

test('apply: conflicts name the other manager and field; force takes them over', () => {
  const live = deployment([{ name: 'web', image: 'a' }], { replicas: 1 });
  recordUpdate(undefined, live, ctx('kubectl-create'));
  const config = deployment([{ name: 'web', image: 'b' }], { replicas: 1 });
  assert.throws(() => apply(live, config, ctx('kubectl'), false), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 409);
    assert.equal(e.reason, 'Conflict');
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.template.spec.containers[name="web"].image');
    assert.deepEqual(e.status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using apps/v1', field: '.spec.template.spec.containers[name="web"].image' }]);
    return true;
  });
  const forced = apply(live, config, ctx('kubectl'), true);
  assert.equal(forced.spec.template.spec.containers[0].image, 'b');
  assert.ok(owned(forced, 'kubectl').includes('.spec.template.spec.containers[name="web"].image'));
  assert.ok(!owned(forced, 'kubectl-create', 'Update').includes('.spec.template.spec.containers[name="web"].image'));
  // same value: shared ownership, no conflict
  const shared = apply(live, deployment([{ name: 'web', image: 'a' }], { replicas: 1 }), ctx('other'), false);
  assert.ok(owned(shared, 'other').includes('.spec.replicas'));
  assert.ok(owned(shared, 'kubectl-create', 'Update').includes('.spec.replicas'));
});

test('apply: a conflict with another applier names it without a version', () => {
  const live = apply(undefined, deployment([{ name: 'web', image: 'a' }], { replicas: 1 }), ctx('ops'), false);
  assert.throws(() => apply(live, deployment([{ name: 'web', image: 'b' }], { replicas: 1 }), ctx('auditor'), false), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "ops": .spec.template.spec.containers[name="web"].image');
    return true;
  });
});

test('two appliers share a list-map: each owns its items; dropping an item removes only it', () => {
  let obj = apply(undefined, deployment([{ name: 'web', image: 'w' }]), ctx('team-a'), false);
  obj = apply(obj, deployment([{ name: 'sidecar', image: 's', env: [{ name: 'A', value: '1' }] }]), ctx('team-b'), false);
  assert.deepEqual(obj.spec.template.spec.containers.map((c: Obj) => c.name), ['web', 'sidecar']);
  assert.ok(owned(obj, 'team-b').includes('.spec.template.spec.containers[name="sidecar"].env[name="A"].value'));
  // team-b stops applying its container: it goes; web stays
  obj = apply(obj, deployment([]), ctx('team-b'), false);
  assert.deepEqual(obj.spec.template.spec.containers.map((c: Obj) => c.name), ['web']);
  // team-a removes a field nobody else owns: it goes; the selector (still applied by team-b) stays
  const replicas = apply(obj, deployment([{ name: 'web', image: 'w' }], { replicas: 2 }), ctx('team-a'), false);
  assert.equal(replicas.spec.replicas, 2);
  const dropped = apply(replicas, deployment([{ name: 'web', image: 'w' }]), ctx('team-a'), false);
  assert.equal('replicas' in dropped.spec, false);
});

test('a field still owned by another manager survives its applier dropping it', () => {
  let obj = apply(undefined, deployment([{ name: 'web', image: 'w' }], { replicas: 2 }), ctx('a'), false);
  obj = apply(obj, deployment([{ name: 'web', image: 'w' }], { replicas: 2 }), ctx('b'), false);
  obj = apply(obj, deployment([{ name: 'web', image: 'w' }]), ctx('a'), false);
  assert.equal(obj.spec.replicas, 2);
  assert.ok(!owned(obj, 'a').includes('.spec.replicas'));
  assert.ok(owned(obj, 'b').includes('.spec.replicas'));
});

test('ports are keyed by containerPort and protocol (TCP when left out); tolerations are atomic', () => {
  const pod = (spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
  const obj = apply(undefined, pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }], tolerations: [{ key: 'a', operator: 'Exists' }] }), podCtx('m'), false);
  const paths = owned(obj, 'm');
  assert.ok(paths.includes('.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]'), paths.join('\n'));
  assert.ok(paths.includes('.spec.tolerations'));
  assert.ok(!paths.some(p => p.startsWith('.spec.tolerations[')));
  const replaced = apply(obj, pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }], tolerations: [{ key: 'b', operator: 'Exists' }] }), podCtx('m'), false);
  assert.deepEqual(replaced.spec.tolerations, [{ key: 'b', operator: 'Exists' }]);
});

test('re-applying the same configuration changes nothing; client-sent managedFields are kept; an empty list clears them', () => {
  const first = apply(undefined, deployment([{ name: 'web', image: 'w' }]), ctx('a'), false);
  const again = apply(first, deployment([{ name: 'web', image: 'w' }]), { ...ctx('a'), now: '2026-11-23T00:00:00Z' }, false);
  assert.equal(again, first);
  const rewritten = structuredClone(first);
  rewritten.metadata.managedFields = [{ manager: 'moved', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:selector': {} } } }];
  recordUpdate(first, rewritten, ctx('kubectl'));
  assert.deepEqual(rewritten.metadata.managedFields.map((e: Obj) => e.manager), ['moved']);
  const cleared = structuredClone(first);
  cleared.metadata.managedFields = [];
  recordUpdate(first, cleared, ctx('kubectl'));
  assert.equal('managedFields' in cleared.metadata, false);
});
