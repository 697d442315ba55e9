import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDefaultTolerations } from '../../../src/registry/core/pod-default-tolerations.ts';

test('new pods tolerate not-ready and unreachable for 300 s unless they already tolerate them', () => {
  const bare: Record<string, unknown> = {};
  addDefaultTolerations(bare);
  assert.deepEqual(bare.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  const own = { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] };
  addDefaultTolerations(own);
  assert.deepEqual(own.tolerations.map(t => [t.key, t.tolerationSeconds]), [['node.kubernetes.io/unreachable', 5], ['node.kubernetes.io/not-ready', 300]]);
  const all = { tolerations: [{ operator: 'Exists' }] };
  addDefaultTolerations(all);
  assert.equal(all.tolerations.length, 1);
});
