import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, parseRuntimeConfig, resourceEnabled, stabilityOf, versionEnabled } from '../../../src/schema/runtime-config.ts';

test('defaults: GA on, beta and alpha off', () => {
  const cfg = parseRuntimeConfig(undefined);
  assert.equal(versionEnabled(cfg, 'apps', 'v1'), true);
  assert.equal(versionEnabled(cfg, 'storage.k8s.io', 'v1beta1'), false);
  assert.equal(versionEnabled(cfg, 'resource.k8s.io', 'v1alpha3'), false);
});

test('broad switches apply before specific entries, whatever their order', () => {
  const cfg = parseRuntimeConfig('batch/v1=true, api/all=false');
  assert.equal(versionEnabled(cfg, 'batch', 'v1'), true);
  assert.equal(versionEnabled(cfg, 'apps', 'v1'), false);
  const alpha = parseRuntimeConfig('api/alpha=true,api/ga=false');
  assert.equal(versionEnabled(alpha, 'resource.k8s.io', 'v1alpha3'), true);
  assert.equal(versionEnabled(alpha, '', 'v1'), false);
  assert.equal(versionEnabled(alpha, 'storage.k8s.io', 'v1beta1'), false);
});

test('api/v1 is the core group; a bare key means true; resource entries beat their version', () => {
  const cfg = parseRuntimeConfig('api/all=false,api/v1,apps/v1/deployments=true');
  assert.equal(versionEnabled(cfg, '', 'v1'), true);
  assert.deepEqual([...cfg.versions.entries()], [['/v1', true]]);
  assert.equal(resourceEnabled(cfg, 'apps', 'v1', 'deployments'), true);
  assert.equal(resourceEnabled(cfg, 'apps', 'v1', 'daemonsets'), false);
});

test('invalid entries throw with a message naming them', () => {
  assert.throws(() => parseRuntimeConfig('apps/v1=yes'), /invalid value apps\/v1=yes/);
  assert.throws(() => parseRuntimeConfig('apps'), /invalid key "apps"/);
  assert.throws(() => parseRuntimeConfig('a/b/c/d=true'), /invalid key/);
  assert.throws(() => parseRuntimeConfig('apps/version1=true'), /not an API version/);
  assert.throws(() => parseRuntimeConfig('apps/v1/Deployments=false'), /lowercase plural/);
  assert.throws(() => parseRuntimeConfig('Apps_x/v1=true'), /not an API group name/);
});

test('stability and version order follow Kubernetes', () => {
  assert.equal(stabilityOf('v2'), 'ga');
  assert.equal(stabilityOf('v1beta3'), 'beta');
  assert.equal(stabilityOf('v1alpha1'), 'alpha');
  const sorted = ['v1alpha1', 'v1beta1', 'v1', 'v2beta2', 'v2', 'v1beta2', 'v11alpha2'].sort(compareVersions);
  assert.deepEqual(sorted, ['v2', 'v1', 'v2beta2', 'v1beta2', 'v1beta1', 'v11alpha2', 'v1alpha1']);
});
