import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllerFlags, controllerOptions } from '../../../src/cli/controller-flags.ts';

const defaults = Object.fromEntries(Object.entries(controllerFlags).map(([k, f]) => [k, f.default as string]));

test('the controllers\' flags as kube-controller-manager names them, with its defaults', () => {
  const { enabled, settings } = controllerOptions(defaults);
  assert.ok(enabled.includes('endpointslice-controller') && enabled.includes('horizontal-pod-autoscaler-controller'));
  assert.deepEqual([settings.maxEndpointsPerSlice, settings.hpaSyncPeriodMs, settings.hpaDownscaleStabilizationMs, settings.hpaTolerance, settings.rootCA], [100, 15_000, 300_000, 0.1, undefined]);
  assert.deepEqual(controllerOptions({ ...defaults, controllers: '*,-disruption,-horizontalpodautoscaling' }).enabled.filter(n => /disruption|autoscaler/.test(n)), []);
  assert.throws(() => controllerOptions({ ...defaults, 'max-endpoints-per-slice': '1001' }), /--max-endpoints-per-slice must be between 1 and 1000/);
  assert.throws(() => controllerOptions({ ...defaults, 'horizontal-pod-autoscaler-tolerance': '-1' }), /tolerance must be a non-negative number/);
});

test('--root-ca-file names the CA published as kube-root-ca.crt; a missing file is a usage error', t => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-ca-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n');
  assert.match(controllerOptions({ ...defaults, 'root-ca-file': join(dir, 'ca.crt') }).settings.rootCA!, /^-----BEGIN CERTIFICATE-----/);
  assert.throws(() => controllerOptions({ ...defaults, 'root-ca-file': join(dir, 'missing.crt') }), /ENOENT/);
});

test('the garbage collector flags, as kube-controller-manager reads them', () => {
  assert.ok(controllerOptions(defaults).enabled.includes('garbage-collector-controller'));
  assert.equal(controllerOptions(defaults).settings.concurrentGCSyncs, 20);
  assert.equal(controllerOptions({ ...defaults, 'concurrent-gc-syncs': '5' }).settings.concurrentGCSyncs, 5);
  // off overrides --controllers naming it
  assert.ok(!controllerOptions({ ...defaults, controllers: 'garbagecollector,namespace', 'enable-garbage-collector': 'false' }).enabled.includes('garbage-collector-controller'));
  assert.deepEqual(controllerOptions({ ...defaults, controllers: 'namespace', 'enable-garbage-collector': 'false' }).enabled, ['namespace']);
  assert.throws(() => controllerOptions({ ...defaults, 'concurrent-gc-syncs': '0' }), /--concurrent-gc-syncs/);
  assert.throws(() => controllerOptions({ ...defaults, 'enable-garbage-collector': 'maybe' }), /invalid boolean value "maybe" for flag --enable-garbage-collector/);
});
