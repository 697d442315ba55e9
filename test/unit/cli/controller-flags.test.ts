import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerOptions } from '../../../src/cli/controller-flags.ts';

const base = { controllers: '*', 'node-monitor-grace-period': '50s', 'node-monitor-period': '5s', 'concurrent-gc-syncs': '20', 'enable-garbage-collector': 'true' };

test('the garbage collector flags, as kube-controller-manager reads them', () => {
  assert.ok(controllerOptions(base).enabled.includes('garbage-collector-controller'));
  assert.equal(controllerOptions(base).settings.concurrentGCSyncs, 20);
  assert.equal(controllerOptions({ ...base, 'concurrent-gc-syncs': '5' }).settings.concurrentGCSyncs, 5);
  // off overrides --controllers naming it
  assert.ok(!controllerOptions({ ...base, controllers: 'garbagecollector,namespace', 'enable-garbage-collector': 'false' }).enabled.includes('garbage-collector-controller'));
  assert.deepEqual(controllerOptions({ ...base, controllers: 'namespace', 'enable-garbage-collector': 'false' }).enabled, ['namespace']);
  assert.throws(() => controllerOptions({ ...base, 'concurrent-gc-syncs': '0' }), /--concurrent-gc-syncs/);
  assert.throws(() => controllerOptions({ ...base, 'enable-garbage-collector': 'maybe' }), /invalid boolean value "maybe" for flag --enable-garbage-collector/);
});
