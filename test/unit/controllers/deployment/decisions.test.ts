import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setNewReplicaSetAnnotations } from '../../../../src/controllers/deployment/annotations.ts';
import { calculateStatus, pausedCondition, rolloutStatus } from '../../../../src/controllers/deployment/deployment-status.ts';
import { newReplicaSetFor } from '../../../../src/controllers/deployment/new-replica-set.ts';
import { maxSurge, maxUnavailable, newRSNewReplicas, resolveFenceposts, scaledValue } from '../../../../src/controllers/deployment/rollout-math.ts';
import { findActiveOrLatest, isScalingEvent, planHistoryCleanup, planNewReplicaSet, planOldReplicaSets, planResize } from '../../../../src/controllers/deployment/scaling-plan.ts';
import { computeTemplateHash, equalIgnoreHash } from '../../../../src/controllers/deployment/template-hash.ts';
import { safeEncode } from '../../../../src/controllers/object-hash.ts';
import type { DeploymentLike, ReplicaSetLike } from '../../../../src/controllers/deployment/types.ts';

const now = Date.parse('2026-01-01T12:00:00Z');

function dep(replicas: number, o: { surge?: number | string; unavailable?: number | string; recreate?: boolean; generation?: number; status?: object; deadline?: number; limit?: number; paused?: boolean; annotations?: Record<string, string> } = {}): DeploymentLike {
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'd-uid', generation: o.generation ?? 1, annotations: o.annotations },
    spec: {
      replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      strategy: o.recreate ? { type: 'Recreate' } : { type: 'RollingUpdate', rollingUpdate: { maxSurge: o.surge ?? '25%', maxUnavailable: o.unavailable ?? '25%' } },
      progressDeadlineSeconds: o.deadline ?? 600, revisionHistoryLimit: o.limit ?? 10, paused: o.paused,
    },
    status: o.status,
  };
}

let seq = 0;
function rs(name: string, replicas: number, o: { available?: number; ready?: number; status?: number; created?: number; revision?: number; desired?: number; max?: number; observed?: number; terminating?: number } = {}): ReplicaSetLike {
  const annotations: Record<string, string> = {};
  if (o.revision !== undefined) annotations['deployment.kubernetes.io/revision'] = String(o.revision);
  if (o.desired !== undefined) annotations['deployment.kubernetes.io/desired-replicas'] = String(o.desired);
  if (o.max !== undefined) annotations['deployment.kubernetes.io/max-replicas'] = String(o.max);
  return {
    metadata: { name, namespace: 'ns', uid: `uid-${name}-${seq++}`, creationTimestamp: new Date(now - (o.created ?? 100) * 1000).toISOString(), annotations, generation: 1 },
    spec: { replicas, selector: {}, template: { metadata: { labels: { app: 'web', 'pod-template-hash': name } } } },
    status: { replicas: o.status ?? replicas, availableReplicas: o.available ?? replicas, readyReplicas: o.ready ?? o.available ?? replicas, observedGeneration: o.observed ?? 1, terminatingReplicas: o.terminating },
  };
}
const plan = (steps: Array<{ rs: ReplicaSetLike; to: number }>) => steps.map(s => `${s.rs.metadata.name}:${s.to}`);

test('percentages round as Kubernetes rounds them: surge up, unavailable down; both zero means one unavailable', () => {
  assert.equal(scaledValue('25%', 10, true), 3);
  assert.equal(scaledValue('25%', 10, false), 2);
  assert.equal(scaledValue(4, 10, true), 4);
  assert.throws(() => scaledValue('4', 10, true), /string is not a percentage/);
  assert.deepEqual(resolveFenceposts('0%', '0%', 10), [0, 1]);
  assert.deepEqual(resolveFenceposts('25%', '25%', 3), [1, 0]);
  assert.deepEqual(resolveFenceposts(0, 0, 0), [0, 1]);
  assert.equal(maxSurge(dep(3)), 1);
  assert.equal(maxUnavailable(dep(3)), 0);
  assert.equal(maxUnavailable(dep(1, { unavailable: 5 })), 1, 'never more than replicas');
  assert.equal(maxUnavailable(dep(0)), 0);
  assert.equal(maxSurge(dep(3, { recreate: true })), 0);
});

test('the new ReplicaSet grows within maxSurge', () => {
  const d = dep(10, { surge: 3, unavailable: 2 });
  const old = rs('old', 10);
  const fresh = rs('new', 0);
  assert.equal(newRSNewReplicas(d, [old, fresh], fresh), 3);
  assert.equal(planNewReplicaSet(d, [old, fresh], fresh), 3);
  const grown = rs('new', 3, { available: 0 });
  assert.equal(planNewReplicaSet(d, [old, grown], grown), undefined, 'at 13 pods nothing more may start');
  assert.equal(planNewReplicaSet(d, [rs('new', 12)], rs('new', 12)), 10, 'a new ReplicaSet above the desired count comes down');
  assert.equal(newRSNewReplicas(dep(5, { recreate: true }), [], rs('new', 0)), 5);
});

test('old ReplicaSets shrink by what availability allows, unhealthy replicas first', () => {
  const d = dep(10, { surge: 3, unavailable: 2 });
  // 10 old all available, 3 new none available: 13 - 8 - 3 = 2 may go, available 10 > 8 → 2
  const old = rs('old', 10);
  const fresh = rs('new', 3, { available: 0 });
  assert.deepEqual(plan(planOldReplicaSets(d, [old, fresh], [old], fresh)), ['old:8']);
  // an old ReplicaSet with 4 unavailable pods: those go first (cleanup), then by availability
  const sick = rs('sick', 6, { available: 2, created: 200 });
  const well = rs('well', 4, { created: 100 });
  const fresh2 = rs('new', 3, { available: 3 });
  assert.deepEqual(plan(planOldReplicaSets(d, [sick, well, fresh2], [sick, well], fresh2)), ['sick:2', 'sick:1']);
  // nothing new is available and the minimum is not exceeded: nothing goes
  const d2 = dep(3);
  assert.deepEqual(planOldReplicaSets(d2, [rs('old', 3), rs('new', 1, { available: 0 })], [rs('old', 3)], rs('new', 1, { available: 0 })), []);
});

test('a resize mid-rollout is spread over the active ReplicaSets in proportion', () => {
  // Kubernetes' documented example: 10 replicas, maxSurge 3, rollout halfway (8 old, 5 new), scaled to 15
  const d = dep(15, { surge: 3, unavailable: 2 });
  const old = rs('old', 8, { desired: 10, max: 13, created: 200 });
  const fresh = rs('new', 5, { desired: 10, max: 13, created: 100 });
  assert.equal(isScalingEvent(d, fresh, [old]), true);
  // allowed 18, 13 now: +5 → old 8*18/13=11.08→11 (+3), new 5*18/13=6.9→7 (+2)
  assert.deepEqual(plan(planResize(d, fresh, [old])), ['old:11', 'new:7']);
  // a single active ReplicaSet simply takes the new size
  assert.deepEqual(plan(planResize(dep(5), rs('only', 3, { desired: 3 }), [rs('gone', 0)])), ['only:5']);
  assert.equal(findActiveOrLatest(undefined, [rs('a', 0, { created: 10 }), rs('b', 0, { created: 5 })])!.metadata.name, 'b', 'none active: the newest');
  // down to zero: every active ReplicaSet goes to zero
  assert.deepEqual(plan(planResize(dep(0, { surge: 3, unavailable: 2 }), fresh, [old])), ['old:0', 'new:0']);
});

test('revisions: a ReplicaSet brought back by a rollback keeps the revisions it had', () => {
  const d = dep(3, { annotations: { 'kubernetes.io/change-cause': 'kubectl set image', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } });
  const back = rs('old', 0, { revision: 1 });
  assert.equal(setNewReplicaSetAnnotations(d, back, 3, true), true);
  assert.equal(back.metadata.annotations!['deployment.kubernetes.io/revision'], '3');
  assert.equal(back.metadata.annotations!['deployment.kubernetes.io/revision-history'], '1');
  assert.equal(back.metadata.annotations!['kubernetes.io/change-cause'], 'kubectl set image');
  assert.equal(back.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration'], undefined);
  setNewReplicaSetAnnotations(d, back, 5, true);
  assert.equal(back.metadata.annotations!['deployment.kubernetes.io/revision-history'], '1,3');
  assert.equal(setNewReplicaSetAnnotations(d, back, 4, true), false, 'never lowered');
});

test('the new ReplicaSet: name, hash label in labels, selector and template, size and annotations', () => {
  const d = dep(3);
  const made = newReplicaSetFor(d, [], 1);
  const hash = computeTemplateHash(d.spec!.template);
  assert.equal(made.metadata.name, `web-${hash}`);
  assert.deepEqual(made.metadata.labels, { app: 'web', 'pod-template-hash': hash });
  assert.deepEqual(made.spec!.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
  assert.equal(made.spec!.template!.metadata!.labels!['pod-template-hash'], hash);
  assert.equal(made.spec!.replicas, 3);
  assert.deepEqual(made.metadata.annotations, { 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
  assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true, blockOwnerDeletion: true }]);
  assert.ok(equalIgnoreHash(made.spec!.template, d.spec!.template));
});

test('the template hash: stable, key-order blind, moved by any change or a collision count', () => {
  const t1 = { metadata: { labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  const t2 = { spec: { containers: [{ image: 'i', name: 'c' }] }, metadata: { labels: { b: '2', a: '1' } } };
  assert.equal(computeTemplateHash(t1), computeTemplateHash(t2));
  assert.notEqual(computeTemplateHash(t1), computeTemplateHash({ ...t1, spec: { containers: [{ name: 'c', image: 'j' }] } }));
  assert.notEqual(computeTemplateHash(t1), computeTemplateHash(t1, 1));
  assert.notEqual(computeTemplateHash(t1, 1), computeTemplateHash(t1, 2));
  assert.match(computeTemplateHash(t1), /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
  assert.equal(safeEncode('0123456789'), '456789bcdf', "Kubernetes' alphabet indexed by byte value");
});

test('status: counts, Available, and the Progressing condition through a rollout', () => {
  const d = dep(3, { status: { observedGeneration: 1, replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 } });
  d.status!.conditions = [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'Created new replica set "web-new"', lastUpdateTime: '2026-01-01T11:59:00Z', lastTransitionTime: '2026-01-01T11:59:00Z' }];
  const old = rs('web-old', 1, { available: 1, terminating: 0 });
  const fresh = rs('web-new', 3, { status: 3, available: 2, ready: 3, terminating: 1 });
  const s = rolloutStatus(d, [old, fresh], fresh, now);
  assert.equal(s.replicas, 4);
  assert.equal(s.updatedReplicas, 3);
  assert.equal(s.availableReplicas, 3);
  assert.equal(s.unavailableReplicas, 1);
  assert.equal(s.terminatingReplicas, 1);
  const p = s.conditions!.find(c => c.type === 'Progressing')!;
  assert.deepEqual([p.reason, p.message, p.lastUpdateTime, p.lastTransitionTime], ['ReplicaSetUpdated', 'ReplicaSet "web-new" is progressing.', '2026-01-01T12:00:00Z', '2026-01-01T11:59:00Z']);
  assert.equal(s.conditions!.find(c => c.type === 'Available')!.reason, 'MinimumReplicasAvailable');

  // complete
  const done = dep(3, { status: { ...s } });
  const end = rolloutStatus(done, [rs('web-old', 0, { status: 0 }), rs('web-new', 3)], rs('web-new', 3), now + 1000);
  assert.equal(end.conditions!.find(c => c.type === 'Progressing')!.reason, 'NewReplicaSetAvailable');
  assert.equal(end.conditions!.find(c => c.type === 'Progressing')!.message, 'ReplicaSet "web-new" has successfully progressed.');

  // no progress for longer than the deadline
  const stuck = dep(3, { deadline: 30, status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 0, conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'm', lastUpdateTime: '2026-01-01T11:59:00Z', lastTransitionTime: '2026-01-01T11:59:00Z' }] } });
  const pending = rs('web-new', 3, { available: 0, ready: 0 });
  const late = rolloutStatus(stuck, [pending], pending, now);
  const c = late.conditions!.find(x => x.type === 'Progressing')!;
  assert.deepEqual([c.status, c.reason, c.message], ['False', 'ProgressDeadlineExceeded', 'ReplicaSet "web-new" has timed out progressing.']);
  assert.equal(late.conditions!.find(x => x.type === 'Available')!.reason, 'MinimumReplicasUnavailable');

  // a ReplicaSet that has not reported terminating pods yet leaves the count unknown
  assert.equal(calculateStatus(d, [rs('x', 1, {})], undefined, now).terminatingReplicas, undefined);
});

test('pause and resume conditions', () => {
  const p = pausedCondition(dep(1, { paused: true }), now)!;
  assert.deepEqual([p.type, p.status, p.reason, p.message], ['Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused']);
  const resumed = dep(1, { status: { conditions: [p] } });
  assert.equal(pausedCondition(resumed, now)!.reason, 'DeploymentResumed');
  assert.equal(pausedCondition(resumed, now)!.message, 'Deployment is resumed');
  assert.equal(pausedCondition(dep(1), now), undefined);
});

test('history cleanup: only empty, settled old ReplicaSets beyond the limit, oldest revisions first', () => {
  const d = dep(3, { limit: 1 });
  const r1 = rs('r1', 0, { revision: 1 });
  const r2 = rs('r2', 0, { revision: 2 });
  const r3 = rs('r3', 0, { revision: 3, status: 1 });
  assert.deepEqual(planHistoryCleanup(d, [r3, r2, r1]).map(r => r.metadata.name), ['r1', 'r2']);
  assert.deepEqual(planHistoryCleanup(dep(3, { limit: 1 }), [r3, rs('r0', 0, { revision: 0, status: 2 })]).map(r => r.metadata.name), [], 'pods still there');
  assert.deepEqual(planHistoryCleanup(dep(3, { limit: 10 }), [r1, r2]), []);
});
