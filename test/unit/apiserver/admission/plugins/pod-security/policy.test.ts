// A namespace's labels read as pod-security-admission reads them: levels and versions per mode,
// the configured defaults, warn following a stricter explicit enforce level, and what an
// unreadable label becomes (with the field error a namespace write is refused for).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseVersion, policyName, policyOf, type Policy } from '../../../../../../src/apiserver/admission/plugins/pod-security/policy.ts';

const l = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`pod-security.kubernetes.io/${k}`, v]));
const names = (p: Policy) => ({ enforce: policyName(p.enforce), warn: policyName(p.warn), audit: policyName(p.audit) });

test('levels and versions per mode; unset ones privileged:latest', () => {
  assert.deepEqual(names(policyOf(undefined).policy), { enforce: 'privileged:latest', warn: 'privileged:latest', audit: 'privileged:latest' });
  assert.deepEqual(names(policyOf(l({ enforce: 'baseline', 'enforce-version': 'v1.30', audit: 'restricted', 'warn-version': 'v1.0' })).policy), { enforce: 'baseline:v1.30', warn: 'baseline:v1.0', audit: 'restricted:latest' });
  assert.deepEqual(policyOf(l({ enforce: 'baseline' })).errors, []);
});

test('warn follows an explicit, stricter enforce level (and its version) unless warn is labelled', () => {
  assert.equal(policyName(policyOf(l({ enforce: 'restricted', 'enforce-version': 'v1.25' })).policy.warn), 'restricted:v1.25');
  assert.equal(policyName(policyOf(l({ enforce: 'restricted', 'warn-version': 'v1.20' })).policy.warn), 'restricted:v1.20');
  assert.equal(policyName(policyOf(l({ enforce: 'baseline', warn: 'privileged' })).policy.warn), 'privileged:latest');
  // a version label alone does not make enforce explicit
  const defaults: Policy = { enforce: { level: 'restricted', version: 'latest' }, warn: { level: 'privileged', version: 'latest' }, audit: { level: 'privileged', version: 'latest' } };
  assert.equal(policyName(policyOf(l({ 'enforce-version': 'v1.30' }), defaults).policy.warn), 'privileged:latest');
  assert.equal(policyName(policyOf(l({ 'enforce-version': 'v1.30' }), defaults).policy.enforce), 'restricted:v1.30');
});

test('the configured defaults stand for labels that are absent', () => {
  const defaults: Policy = { enforce: { level: 'baseline', version: 33 }, warn: { level: 'restricted', version: 'latest' }, audit: { level: 'privileged', version: 'latest' } };
  assert.deepEqual(names(policyOf({}, defaults).policy), { enforce: 'baseline:v1.33', warn: 'restricted:latest', audit: 'privileged:latest' });
  assert.deepEqual(names(policyOf(l({ audit: 'baseline' }), defaults).policy), { enforce: 'baseline:v1.33', warn: 'restricted:latest', audit: 'baseline:latest' });
});

test('unreadable labels: enforce fails closed (restricted), warn and audit open (privileged), versions latest; each a field error', () => {
  const r = policyOf(l({ enforce: 'strict', warn: 'loud', audit: 'Baseline', 'enforce-version': 'v2.0', 'audit-version': 'v1.01' }));
  assert.deepEqual(names(r.policy), { enforce: 'restricted:latest', warn: 'privileged:latest', audit: 'privileged:latest' });
  assert.deepEqual(r.errors.map(e => [e.field, e.value, e.detail]), [
    ['metadata.labels[pod-security.kubernetes.io/enforce]', 'strict', 'must be one of privileged, baseline, restricted'],
    ['metadata.labels[pod-security.kubernetes.io/enforce-version]', 'v2.0', 'must be "latest" or "v1.x"'],
    ['metadata.labels[pod-security.kubernetes.io/audit]', 'Baseline', 'must be one of privileged, baseline, restricted'],
    ['metadata.labels[pod-security.kubernetes.io/audit-version]', 'v1.01', 'must be "latest" or "v1.x"'],
    ['metadata.labels[pod-security.kubernetes.io/warn]', 'loud', 'must be one of privileged, baseline, restricted'],
  ]);
  // an unreadable enforce level does not pull warn up with it
  assert.equal(policyName(policyOf(l({ enforce: 'x' })).policy.warn), 'privileged:latest');
});

test('versions: "latest" and v1.N only', () => {
  assert.equal(parseVersion('latest'), 'latest');
  assert.equal(parseVersion('v1.0'), 0);
  assert.equal(parseVersion('v1.36'), 36);
  assert.equal(parseVersion('v1.999'), 999);
  for (const bad of ['1.30', 'v1.30.0', 'v1.030', 'Latest', 'v1.', 'v2.1', '']) assert.equal(parseVersion(bad), undefined, bad);
});
