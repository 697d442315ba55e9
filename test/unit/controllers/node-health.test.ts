import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileTaints, unknownConditions, wantedTaints } from '../../../src/controllers/node-lifecycle/health.ts';
import { evictionTime, tolerates } from '../../../src/controllers/node-lifecycle/tolerations.ts';

test('a quiet node: agent conditions turn Unknown with Kubernetes reasons, heartbeat kept', () => {
  const before = [
    { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: 'h', lastTransitionTime: 't' },
    { type: 'NetworkUnavailable', status: 'False', reason: 'NetworkReady' },
  ];
  const after = unknownConditions(before, 'now');
  assert.deepEqual(after.find(c => c.type === 'Ready'), { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: 'h', lastTransitionTime: 'now' });
  assert.deepEqual(after.filter(c => c.status === 'Unknown').map(c => c.type).sort(), ['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready']);
  assert.equal(after.find(c => c.type === 'MemoryPressure')!.reason, 'NodeStatusNeverUpdated');
  assert.equal(after.find(c => c.type === 'NetworkUnavailable')!.status, 'False');
});

test('condition taints: unreachable when Unknown, not-ready only past the grace period, pressure and cordon NoSchedule', () => {
  const c = (status: string, extra: Array<[string, string]> = []) => [{ type: 'Ready', status }, ...extra.map(([type, s]) => ({ type, status: s }))];
  assert.deepEqual(wantedTaints({ conditions: c('Unknown'), unschedulable: false, notReadyPastGrace: false }),
    [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]);
  assert.deepEqual(wantedTaints({ conditions: c('False'), unschedulable: false, notReadyPastGrace: false }), []);
  assert.deepEqual(wantedTaints({ conditions: c('False'), unschedulable: false, notReadyPastGrace: true }).map(t => `${t.key}:${t.effect}`),
    ['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
  assert.deepEqual(wantedTaints({ conditions: c('True', [['MemoryPressure', 'True'], ['DiskPressure', 'False']]), unschedulable: true, notReadyPastGrace: false }).map(t => t.key),
    ['node.kubernetes.io/unschedulable', 'node.kubernetes.io/memory-pressure']);
});

test('reconciling taints keeps other owners\' taints and timeAdded, drops ours when healed', () => {
  const mine = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'then' };
  const theirs = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const wanted = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }];
  assert.deepEqual(reconcileTaints([theirs, mine], wanted, 'now'), [theirs, mine, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
  assert.equal(reconcileTaints([theirs, mine, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }], wanted, 'now'), undefined);
  assert.deepEqual(reconcileTaints([theirs, mine], [], 'now'), [theirs]);
  assert.deepEqual(reconcileTaints(undefined, [wanted[1]!], 'now'), [{ ...wanted[1]!, timeAdded: 'now' }]);
});

test('tolerations: matching rules and the eviction time', () => {
  const taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-22T10:00:00Z' };
  const t0 = Date.parse('2026-11-22T10:00:00Z');
  assert.equal(tolerates({ operator: 'Exists' }, taint), true);
  assert.equal(tolerates({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, taint), false);
  assert.equal(tolerates({ key: 'k', value: 'v' }, { key: 'k', value: 'v', effect: 'NoExecute' }), true);
  assert.equal(tolerates({ key: 'k', value: 'w' }, { key: 'k', value: 'v', effect: 'NoExecute' }), false);
  assert.equal(evictionTime([taint], [], t0 + 5000), t0 + 5000, 'untolerated: now');
  assert.equal(evictionTime([taint], [{ key: taint.key, operator: 'Exists', effect: 'NoExecute' }], t0), 'never');
  assert.equal(evictionTime([taint], [{ key: taint.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], t0 + 1000), t0 + 300_000);
  assert.equal(evictionTime([taint, { key: 'other', effect: 'NoExecute' }], [{ operator: 'Exists', tolerationSeconds: 30 }, { key: taint.key, operator: 'Exists', tolerationSeconds: 60 }], t0), t0 + 30_000);
  assert.equal(evictionTime([{ key: 'x', effect: 'NoSchedule' }], [], t0), 'never', 'NoSchedule taints never evict');
  assert.equal(evictionTime([taint], [{ operator: 'Exists', tolerationSeconds: -5 }], t0), t0);
});
