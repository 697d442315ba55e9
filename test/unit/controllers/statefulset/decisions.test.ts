import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimOwnersWanted } from '../../../../src/controllers/statefulset/claim-retention.ts';
import { claimsFor, identityMatches, newStatefulPod, parentAndOrdinal, storageMatches, type StatefulSet } from '../../../../src/controllers/statefulset/identity.ts';
import { completeRollingUpdate, maxUnavailableOf, planSync, type Action, type SyncInput } from '../../../../src/controllers/statefulset/sync-plan.ts';

const now = Date.parse('2026-01-01T00:10:00Z');
const template = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'db:1' }] } };
const template2 = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'db:2' }] } };

function set(spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): StatefulSet {
  return { metadata: { name: 'db', namespace: 'ns', uid: 'set-uid', generation: 1, ...meta }, spec: { replicas: 3, selector: { matchLabels: { app: 'db' } }, template, serviceName: 'db', ...spec } as any };
}

/** a pod as the API would hold it: made from the set at a revision, then given a phase and readiness */
function pod(s: StatefulSet, ordinal: number, state: 'ready' | 'pending' | 'failed' | 'terminating' | 'running', revision = 'rev1', readySince = '2026-01-01T00:00:00Z') {
  const p: any = newStatefulPod(s, revision === 'rev2' ? template2 : template, ordinal, revision);
  p.metadata.uid = `uid-${ordinal}`;
  p.status = { phase: state === 'pending' ? 'Pending' : state === 'failed' ? 'Failed' : 'Running', conditions: [{ type: 'Ready', status: state === 'ready' || state === 'terminating' ? 'True' : 'False', lastTransitionTime: readySince }] };
  if (state === 'terminating') p.metadata.deletionTimestamp = '2026-01-01T00:09:00Z';
  return p;
}

function input(s: StatefulSet, pods: any[], extra: Partial<SyncInput> = {}): SyncInput {
  return { set: s, pods, current: { name: 'rev1', template }, update: { name: 'rev1', template }, collisionCount: 0, claim: () => undefined, now, ...extra };
}

const summary = (actions: Action[]) => actions.map(a => a.kind === 'createPod' ? `create ${a.pod.metadata!.name}` : a.kind === 'deletePod' ? `delete ${a.pod.metadata!.name}` : a.kind === 'createClaim' ? `claim ${a.claim.metadata!.name}` : a.kind);

test('identity: names, ordinals, hostname, labels and claim volumes', () => {
  assert.deepEqual(parentAndOrdinal('web-12'), { parent: 'web', ordinal: 12 });
  assert.deepEqual(parentAndOrdinal('my-set-0'), { parent: 'my-set', ordinal: 0 });
  assert.equal(parentAndOrdinal('web').ordinal, -1);
  const s = set({ volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'disk' } }, spec: { accessModes: ['ReadWriteOnce'] } }], template: { ...template, spec: { ...template.spec, volumes: [{ name: 'data', emptyDir: {} }, { name: 'cfg', configMap: { name: 'x' } }] } } });
  const p = newStatefulPod(s, s.spec!.template, 2, 'db-abc');
  assert.equal(p.metadata!.name, 'db-2');
  assert.equal(p.spec!.hostname, 'db-2');
  assert.equal(p.spec!.subdomain, 'db');
  assert.deepEqual(p.metadata!.labels, { app: 'db', 'statefulset.kubernetes.io/pod-name': 'db-2', 'apps.kubernetes.io/pod-index': '2', 'controller-revision-hash': 'db-abc' });
  assert.deepEqual(p.spec!.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-2' } }, { name: 'cfg', configMap: { name: 'x' } }], 'the claim replaces the template volume of its name');
  assert.ok(identityMatches(s, { ...p, metadata: { ...p.metadata, namespace: 'ns' } }));
  assert.ok(storageMatches(s, p));
  const c = claimsFor(s, 2).get('data')!;
  assert.equal(c.metadata!.name, 'data-db-2');
  assert.deepEqual(c.metadata!.labels, { tier: 'disk', app: 'db' });
});

test('OrderedReady creates the lowest missing ordinal, claims first, and waits for it to be Running and Ready', () => {
  const s = set({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] });
  assert.deepEqual(summary(planSync(input(s, [])).actions), ['claim data-db-0', 'create db-0']);
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'pending')], { claim: n => (n === 'data-db-0' ? { metadata: { name: n } } : undefined) })).actions), [], 'db-0 not ready: nothing else');
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'ready')], { claim: n => (n === 'data-db-0' ? { metadata: { name: n } } : undefined) })).actions), ['claim data-db-1', 'create db-1']);
  // a pending pod whose claim went missing gets it made again
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'pending')])).actions), ['claim data-db-0']);
  // a missing middle ordinal is made before anything else
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'ready'), pod(s, 2, 'ready')], { claim: n => ({ metadata: { name: n } }) })).actions), ['create db-1']);
});

test('minReadySeconds: a ready pod blocks until available, and the plan says when to look again', () => {
  const s = set({ minReadySeconds: 30 });
  const fresh = pod(s, 0, 'ready', 'rev1', '2026-01-01T00:09:50Z');
  const plan = planSync(input(s, [fresh]));
  assert.deepEqual(plan.actions, []);
  assert.equal(plan.recheckAtMs, Date.parse('2026-01-01T00:10:20Z') + 1);
  assert.equal(plan.status.readyReplicas, 1);
  assert.equal(plan.status.availableReplicas, 0);
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'ready')])).actions), ['create db-1']);
});

test('Parallel creates every missing pod at once; failed pods are deleted to be made again', () => {
  const s = set({ podManagementPolicy: 'Parallel' });
  const plan = planSync(input(s, []));
  assert.ok(plan.parallel);
  assert.deepEqual(summary(plan.actions), ['create db-0', 'create db-1', 'create db-2']);
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'failed'), pod(s, 1, 'ready'), pod(s, 2, 'pending')])).actions), ['delete db-0']);
});

test('scale down: the highest ordinal first, one at a time in OrderedReady, only when the rest are healthy', () => {
  const s = set({ replicas: 1 });
  const pods = [pod(s, 0, 'ready'), pod(s, 1, 'ready'), pod(s, 2, 'ready')];
  assert.deepEqual(summary(planSync(input(s, pods)).actions), ['delete db-2']);
  assert.deepEqual(summary(planSync(input(s, [pods[0], pods[1], pod(s, 2, 'terminating')])).actions), [], 'waits for db-2 to go');
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'pending'), pods[1]])).actions), [], 'waits for db-0 to be ready');
  assert.deepEqual(summary(planSync(input(set({ replicas: 1, podManagementPolicy: 'Parallel' }), pods)).actions), ['delete db-2', 'delete db-1']);
});

test('rolling update: one pod of the old revision at a time from the top, at or above the partition; maxUnavailable widens it', () => {
  const s = set();
  const olds = [0, 1, 2].map(i => pod(s, i, 'ready'));
  const upd = { current: { name: 'rev1', template }, update: { name: 'rev2', template: template2 } };
  assert.deepEqual(summary(planSync(input(s, olds, upd)).actions), ['delete db-2']);
  // db-2 comes back at rev2 (the update revision, being above the partition) but is not ready yet: wait
  const p = planSync(input(s, [olds[0], olds[1]], upd));
  assert.equal((p.actions[0] as any).pod.metadata.labels['controller-revision-hash'], 'rev2');
  assert.deepEqual(summary(planSync(input(s, [olds[0], olds[1], pod(s, 2, 'pending', 'rev2')], upd)).actions), []);
  assert.deepEqual(summary(planSync(input(s, [olds[0], olds[1], pod(s, 2, 'ready', 'rev2')], upd)).actions), ['delete db-1']);
  // partition 2: only db-2 is updated; a recreated db-0 stays at the current revision
  const part = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
  assert.deepEqual(summary(planSync(input(part, [olds[0], olds[1], pod(s, 2, 'ready', 'rev2')], upd)).actions), []);
  const again = planSync(input(part, [olds[1], pod(s, 2, 'ready', 'rev2')], upd));
  assert.equal((again.actions[0] as any).pod.metadata.labels['controller-revision-hash'], 'rev1');
  // maxUnavailable 2 deletes two at once; OnDelete deletes none
  assert.deepEqual(summary(planSync(input(set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } } }), olds, upd)).actions), ['delete db-2', 'delete db-1']);
  assert.deepEqual(summary(planSync(input(set({ updateStrategy: { type: 'OnDelete' } }), olds, upd)).actions), []);
  assert.equal(maxUnavailableOf('50%', 3), 1);
  assert.equal(maxUnavailableOf('10%', 3), 1, 'at least one');
  assert.equal(maxUnavailableOf(undefined, 3), 1);
});

test('status: counts, revisions, and a rolling update completing when every replica is updated and ready', () => {
  const s = set({}, { generation: 4 });
  const upd = { current: { name: 'rev1', template }, update: { name: 'rev2', template: template2 }, collisionCount: 1 };
  const st = planSync(input(s, [pod(s, 0, 'ready', 'rev2'), pod(s, 1, 'ready', 'rev2'), pod(s, 2, 'pending', 'rev2')], upd)).status;
  assert.deepEqual(st, { observedGeneration: 4, currentRevision: 'rev1', updateRevision: 'rev2', collisionCount: 1, replicas: 3, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 3 }, 'currentReplicas 0 left out, as Go omits it');
  assert.equal(completeRollingUpdate(s, st).currentRevision, 'rev1', 'not every replica is ready');
  const done = completeRollingUpdate(s, { ...st, readyReplicas: 3 });
  assert.equal(done.currentRevision, 'rev2');
  assert.equal(done.currentReplicas, 3);
});

test('claim retention: the set owns claims under whenDeleted Delete, the pod owns them once scaled away under whenScaled Delete', () => {
  const s = set({ replicas: 1, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } });
  const inRange = pod(s, 0, 'ready');
  const scaledAway = pod(s, 2, 'ready');
  const claim = (refs?: any[]) => ({ metadata: { name: 'data-db-0', ownerReferences: refs } });
  const setRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'set-uid', controller: true, blockOwnerDeletion: true };
  assert.deepEqual(claimOwnersWanted(claim(), s, inRange), [setRef]);
  assert.equal(claimOwnersWanted(claim([setRef]), s, inRange), undefined, 'up to date');
  assert.deepEqual(claimOwnersWanted(claim([setRef]), s, scaledAway), [{ apiVersion: 'v1', kind: 'Pod', name: 'db-2', uid: 'uid-2', controller: true, blockOwnerDeletion: true }]);
  assert.equal(claimOwnersWanted(claim(), set(), inRange), undefined, 'Retain/Retain: no owners');
  assert.deepEqual(claimOwnersWanted(claim([setRef]), set(), inRange), [], 'Retain again: our reference removed');
  assert.equal(claimOwnersWanted(claim([{ ...setRef, uid: 'older-set' }]), s, inRange), undefined, 'a reference to an earlier set of the name is left alone');
  assert.equal(claimOwnersWanted(claim([{ apiVersion: 'x/v1', kind: 'Other', name: 'o', uid: 'o', controller: true }]), s, inRange), undefined, 'another controller keeps it');
});

test('spec.ordinals.start: ordinals count from it; pods below it are scaled away', () => {
  const s = set({ replicas: 2, ordinals: { start: 5 }, podManagementPolicy: 'Parallel' });
  assert.deepEqual(summary(planSync(input(s, [])).actions), ['create db-5', 'create db-6']);
  assert.deepEqual(summary(planSync(input(s, [pod(s, 0, 'ready'), pod(s, 5, 'ready'), pod(s, 6, 'ready')])).actions), ['delete db-0']);
});
