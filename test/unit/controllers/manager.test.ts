import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerNames, selectControllers } from '../../../src/controllers/manager.ts';

test('--controllers selects as kube-controller-manager does', () => {
  assert.deepEqual(selectControllers(['*']), controllerNames());
  assert.deepEqual(selectControllers(['*', '-namespace']), []);
  assert.deepEqual(selectControllers(['namespace']), ['namespace']);
  assert.throws(() => selectControllers(['nope']), /unknown controller "nope"/);
});
