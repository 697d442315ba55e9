import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelSelectorFromObject, labelSelectorFromSet } from '../../../../src/api/selectors/label.ts';
import { podsToDelete } from '../../../../src/controllers/replicaset/deletion-rank.ts';
import { Expectations, expectationsTimeoutMs } from '../../../../src/controllers/replicaset/expectations.ts';
import { replicaStatus, statusChanged } from '../../../../src/controllers/replicaset/replica-status.ts';
import { adoptPatch, claimOf, releasePatch, type Owner } from '../../../../src/controllers/owner-refs.ts';
import { isPodAvailable } from '../../../../src/controllers/pod-readiness.ts';
import type { CoreV1Pod } from '../../../../src/schema/generated/types.ts';

const now = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

function pod(name: string, o: { node?: string; phase?: string; readyFor?: number; created?: number; restarts?: number; cost?: string; labels?: Record<string, string> } = {}): CoreV1Pod {
  return {
    metadata: { name, uid: `uid-${name}`, namespace: 'ns', labels: o.labels ?? { app: 'web' }, creationTimestamp: ago(o.created ?? 1000), annotations: o.cost ? { 'controller.kubernetes.io/pod-deletion-cost': o.cost } : undefined },
    spec: { nodeName: o.node, containers: [] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: o.readyFor !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: ago(o.readyFor) }] : [{ type: 'Ready', status: 'False' }],
      containerStatuses: [{ name: 'c', restartCount: o.restarts ?? 0, ready: true, image: '', imageID: '' }],
    },
  };
}
const names = (ps: CoreV1Pod[]) => ps.map(p => p.metadata!.name);

test('scale-down victims go in Kubernetes order', () => {
  const all = [
    pod('ready-old', { node: 'n1', readyFor: 5000 }),
    pod('unscheduled', { phase: 'Pending' }),
    pod('pending', { node: 'n1', phase: 'Pending' }),
    pod('not-ready', { node: 'n1' }),
    pod('ready-new', { node: 'n1', readyFor: 10 }),
  ];
  assert.deepEqual(names(podsToDelete(all, all, 4, now)), ['unscheduled', 'pending', 'not-ready', 'ready-new']);
  // asking for all of them (or more) needs no ranking
  assert.equal(podsToDelete(all, all, 9, now).length, 5);
});

test('deletion cost, crowded nodes, restarts and age break ties', () => {
  const cost = [pod('cheap', { node: 'a', readyFor: 100, cost: '-5' }), pod('dear', { node: 'a', readyFor: 100, cost: '10' }), pod('plain', { node: 'a', readyFor: 100 })];
  assert.deepEqual(names(podsToDelete(cost, cost, 2, now)), ['cheap', 'plain']);
  // two relatives on node b: its pod goes first
  const crowd = [pod('alone', { node: 'a', readyFor: 100 }), pod('crowded', { node: 'b', readyFor: 100 })];
  const related = [...crowd, pod('sibling', { node: 'b', readyFor: 100 })];
  assert.deepEqual(names(podsToDelete(crowd, related, 1, now)), ['crowded']);
  // equal ready times: restarts decide
  const restarts = [pod('calm', { node: 'a', readyFor: 100 }), pod('flappy', { node: 'a', readyFor: 100, restarts: 3 })];
  assert.deepEqual(names(podsToDelete(restarts, restarts, 1, now)), ['flappy']);
  // ready times in one power-of-two bucket go by uid (random), before restarts are looked at
  const bucket = [pod('z-calm', { node: 'a', readyFor: 100 }), pod('a-flappy', { node: 'a', readyFor: 101, restarts: 3 }), pod('m', { node: 'a', readyFor: 102 })];
  assert.deepEqual(names(podsToDelete(bucket, bucket, 2, now)), ['a-flappy', 'm']);
  // buckets far apart: the more recently ready goes first
  const recent = [pod('long', { node: 'a', readyFor: 4000 }), pod('short', { node: 'a', readyFor: 5 })];
  assert.deepEqual(names(podsToDelete(recent, recent, 1, now)), ['short']);
  // created in the same power-of-two bucket: uid order
  const same = [pod('b', { node: 'a', readyFor: 100, created: 1000 }), pod('a', { node: 'a', readyFor: 100, created: 1001 })];
  assert.deepEqual(names(podsToDelete(same, same, 1, now)), ['a']);
});

test('availability waits strictly longer than minReadySeconds', () => {
  assert.equal(isPodAvailable(pod('p', { readyFor: 10 }), 10, now), false);
  assert.equal(isPodAvailable(pod('p', { readyFor: 11 }), 10, now), true);
  assert.equal(isPodAvailable(pod('p', { readyFor: 0 }), 0, now), true);
  assert.equal(isPodAvailable(pod('p'), 0, now), false);
});

test('status counts and the ReplicaFailure condition', () => {
  const pods = [pod('a', { readyFor: 100 }), pod('b', { readyFor: 2 }), pod('c'), pod('d', { labels: { app: 'web', extra: 'no' } })];
  const base = { previous: undefined, generation: 3, minReadySeconds: 5, templateLabels: labelSelectorFromSet({ app: 'web', tier: 'x' }), pods, now };
  const s = replicaStatus({ ...base, templateLabels: labelSelectorFromSet({ app: 'web' }), terminating: [pod('t')] });
  assert.deepEqual(s, { replicas: 4, fullyLabeledReplicas: 4, readyReplicas: 2, availableReplicas: 1, observedGeneration: undefined, terminatingReplicas: 1 });
  assert.equal(replicaStatus(base).fullyLabeledReplicas, 0, 'pods must carry every template label');
  const failed = replicaStatus({ ...base, failure: { message: 'pods "x" is forbidden: exceeded quota', wantedMore: true } });
  assert.deepEqual(failed.conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: '2026-01-01T12:00:00Z', reason: 'FailedCreate', message: 'pods "x" is forbidden: exceeded quota' }]);
  assert.equal(replicaStatus({ ...base, failure: { message: 'm', wantedMore: false } }).conditions![0]!.reason, 'FailedDelete');
  // kept while failing, removed on the first sync without failure
  assert.equal(replicaStatus({ ...base, previous: failed, failure: { message: 'other', wantedMore: true } }).conditions![0]!.message, 'pods "x" is forbidden: exceeded quota');
  assert.equal(replicaStatus({ ...base, previous: failed }).conditions, undefined);
  assert.equal(statusChanged({ ...s, observedGeneration: 3 }, s, 3), false);
  assert.equal(statusChanged({ ...s, observedGeneration: 2 }, s, 3), true, 'a new generation is always written');
});

test('expectations hold syncs until creations and deletions are seen, or expire', () => {
  let t = 0;
  const e = new Expectations(() => t);
  assert.equal(e.satisfied('ns/rs'), true);
  e.expectCreations('ns/rs', 2);
  assert.equal(e.satisfied('ns/rs'), false);
  e.creationObserved('ns/rs');
  assert.equal(e.satisfied('ns/rs'), false);
  e.creationObserved('ns/rs');
  assert.equal(e.satisfied('ns/rs'), true);
  e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
  e.deletionObserved('ns/rs', 'ns/a');
  e.deletionObserved('ns/rs', 'ns/a');
  assert.equal(e.satisfied('ns/rs'), false, 'seeing one pod go twice does not count as the other');
  t += expectationsTimeoutMs + 1;
  assert.equal(e.satisfied('ns/rs'), true, 'expired');
});

test('claims: keep, adopt, release, ignore', () => {
  const owner: Owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'ns', uid: 'u1' } };
  const sel = labelSelectorFromObject({ matchLabels: { app: 'web' } });
  const ref = (uid: string) => [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid, controller: true }];
  const p = (labels: Record<string, string>, extra: object = {}) => ({ metadata: { namespace: 'ns', labels, ...extra } });
  assert.equal(claimOf(owner, sel, p({ app: 'web' }, { ownerReferences: ref('u1') })), 'keep');
  assert.equal(claimOf(owner, sel, p({ app: 'db' }, { ownerReferences: ref('u1') })), 'release');
  assert.equal(claimOf(owner, sel, p({ app: 'web' }, { ownerReferences: ref('u2') })), 'ignore');
  assert.equal(claimOf(owner, sel, p({ app: 'web' })), 'adopt');
  assert.equal(claimOf(owner, sel, p({ app: 'web' }, { deletionTimestamp: ago(1) })), 'ignore');
  assert.equal(claimOf(owner, sel, p({ app: 'web' }, { namespace: 'other' })), 'ignore');
  const going = { ...owner, metadata: { ...owner.metadata, deletionTimestamp: ago(1) } };
  assert.equal(claimOf(going, sel, p({ app: 'web' })), 'ignore');
  assert.equal(claimOf(going, sel, p({ app: 'db' }, { ownerReferences: ref('u1') })), 'ignore');
  assert.deepEqual(adoptPatch(owner, 'pu'), { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true, blockOwnerDeletion: true }], uid: 'pu' } });
  assert.deepEqual(releasePatch('u1', 'pu'), { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'u1' }], uid: 'pu' } });
});
