// Quota arithmetic: sums keep the first operand's suffixes, comparisons are exact, lists print sorted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, addQuantity, equals, exceeding, mask, prettyPrint, removeZeros, subtractNonNegative } from '../../../../src/api/quota/resource-list.ts';
import { podLimits, podRequests } from '../../../../src/api/pod-resources.ts';

test('quantities add exactly in the first operand\'s family; zero takes the other\'s', () => {
  assert.equal(addQuantity('500m', '500m'), '1');
  assert.equal(addQuantity('1Gi', '512Mi'), '1536Mi');
  assert.equal(addQuantity('100Mi', '100M'), '204857600');
  assert.equal(addQuantity('0', '256Mi'), '256Mi');
  assert.equal(addQuantity('1', '250m'), '1250m');
  assert.equal(addQuantity('2', '3'), '5');
});

test('lists: add, subtract never below zero, mask, zeros dropped, exceeded names, equality', () => {
  assert.deepEqual(add({ pods: '1', cpu: '100m' }, { pods: '2', memory: '1Gi' }), { pods: '3', cpu: '100m', memory: '1Gi' });
  assert.deepEqual(subtractNonNegative({ cpu: '1', pods: '1' }, { cpu: '2', memory: '1Gi' }), { cpu: '0', pods: '1', memory: '0' });
  assert.deepEqual(mask({ a: '1', b: '2' }, ['b', 'c']), { b: '2' });
  assert.deepEqual(removeZeros({ a: '0', b: '0m', c: '1' }), { c: '1' });
  assert.deepEqual(exceeding({ pods: '3', cpu: '1', x: '9' }, { pods: '2', cpu: '1000m' }), ['pods']);
  assert.ok(equals({ cpu: '1' }, { cpu: '1000m' }));
  assert.ok(!equals({ cpu: '1' }, { cpu: '1', pods: '0' }));
  assert.equal(prettyPrint({ pods: '2', 'limits.cpu': '1' }), 'limits.cpu=1,pods=2');
});

test('a pod\'s requests: containers and sidecars add up, init containers take the larger phase, overhead adds', () => {
  const c = (cpu: string, restartPolicy?: string) => ({ resources: { requests: { cpu }, limits: { cpu } }, restartPolicy });
  const pod = { spec: { containers: [c('100m'), c('200m')], initContainers: [c('1')], overhead: { cpu: '10m', memory: '1Mi' } } };
  assert.deepEqual(podRequests(pod), { cpu: '1010m', memory: '1Mi' });
  assert.deepEqual(podLimits(pod), { cpu: '1010m' }, 'overhead is added to limits only where a limit is set');
  const sidecar = { spec: { containers: [c('100m')], initContainers: [c('200m', 'Always'), c('250m')] } };
  assert.deepEqual(podRequests(sidecar), { cpu: '450m' }, 'an init container after a sidecar runs beside it');
  const podLevel = { spec: { containers: [c('100m')], resources: { requests: { cpu: '2' } } } };
  assert.deepEqual(podRequests(podLevel), { cpu: '2' });
});
