import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerOptions } from '../../../src/cli/controller-flags.ts';

test('--local-path-dir reaches the controllers; values built without it leave the provisioner its default', () => {
  const base = { controllers: '*', 'node-monitor-grace-period': '50s', 'node-monitor-period': '5s' };
  assert.equal(controllerOptions({ ...base, 'local-path-dir': '/srv/volumes' }).settings.localPathDir, '/srv/volumes');
  assert.equal(controllerOptions(base).settings.localPathDir, undefined);
});
