import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowlistPattern, imagePullConfigProblems, mergeCredentials, mustAttemptPull, requiresVerification, verificationPolicies } from '../../../../src/agent/images/pull-policy.ts';
import type { ImagePulledRecord } from '../../../../src/agent/images/pull-records.ts';

test('the verification policy matrix: which present images need their credentials checked', () => {
  const allow = ['registry.io/public/*', 'docker.io/library/busybox'];
  const want: Record<string, [boolean, boolean, boolean, boolean]> = {
    //                              [agent-pulled private, preloaded private, agent-pulled allowlisted, preloaded allowlisted]
    NeverVerify: [false, false, false, false],
    NeverVerifyPreloadedImages: [true, false, true, false],
    NeverVerifyAllowlistedImages: [true, true, false, false],
    AlwaysVerify: [true, true, true, true],
  };
  for (const policy of verificationPolicies) {
    const verify = requiresVerification(policy, policy === 'NeverVerifyAllowlistedImages' ? allow : []);
    const got = [verify('registry.io/private/app:1', true), verify('registry.io/private/app:1', false), verify('registry.io/public/app:1', true), verify('busybox:1.36', false)];
    assert.deepEqual(got, want[policy], policy);
  }
});

test('allowlist patterns: repositories without tag or digest, or a prefix ending in /*, refused in the kubelet\'s words', () => {
  assert.deepEqual(allowlistPattern('registry.io/team/*'), { prefix: 'registry.io/team/' });
  assert.deepEqual(allowlistPattern('docker.io/library/busybox'), { name: 'docker.io/library/busybox' });
  assert.deepEqual(allowlistPattern(' registry.io/x'), { error: 'leading/trailing spaces are not allowed:  registry.io/x' });
  assert.deepEqual(allowlistPattern('/*'), { error: 'at least registry hostname is required' });
  assert.deepEqual(allowlistPattern('registry.io/*/app'), { error: 'not a valid wildcard pattern, only patterns ending with \'/*\' are allowed: registry.io/*/app' });
  assert.deepEqual(allowlistPattern('registry.io/app:1'), { error: 'neither tag nor digest is accepted in an image reference: registry.io/app:1' });
  assert.deepEqual(allowlistPattern('Registry.io/App'), { error: 'failed to parse as an image name: invalid reference format' });
});

const record = (mapping: ImagePulledRecord['credentialMapping']): ImagePulledRecord => ({ lastUpdatedTime: '2026-01-01T00:00:00Z', imageRef: 'sha256:aa', credentialMapping: mapping });
const s1 = { uid: 'uid1', namespace: 'ns1', name: 's1', credentialHash: 'h1' };

test('who may use a recorded image: anyone after an anonymous pull, else a pod holding the same secret or the same credentials', () => {
  const img = 'registry.io/private/app:1';
  assert.deepEqual(mustAttemptPull(img, undefined, [s1]), { pull: true }, 'no record');
  assert.deepEqual(mustAttemptPull(img, record({}), [s1]), { pull: true }, 'a record without credentials (an intent left by a crash)');
  assert.deepEqual(mustAttemptPull(img, record({ 'registry.io/private/app': { nodePodsAccessible: true } }), []), { pull: false });
  const bySecret = record({ 'registry.io/private/app': { kubernetesSecrets: [s1] } });
  assert.deepEqual(mustAttemptPull('registry.io/private/app:2', bySecret, [s1]), { pull: false }, 'another tag of the same name');
  assert.deepEqual(mustAttemptPull(img, bySecret, []), { pull: true }, 'no secrets');
  assert.deepEqual(mustAttemptPull(img, bySecret, [{ ...s1, uid: 'other', credentialHash: 'h2' }]), { pull: true }, 'another secret of the same name');
  assert.deepEqual(mustAttemptPull('registry.io/other:1', bySecret, [s1]), { pull: true }, 'another image name');
  // the same credentials in another secret: allowed, and that secret remembered
  const copy = { uid: 'uid9', namespace: 'ns2', name: 'copy', credentialHash: 'h1' };
  assert.deepEqual(mustAttemptPull(img, bySecret, [copy]), { pull: false, remember: { kubernetesSecrets: [copy] } });
  // the same secret, rotated: allowed, the new hash remembered
  const rotated = { ...s1, credentialHash: 'h3' };
  assert.deepEqual(mustAttemptPull(img, bySecret, [rotated]), { pull: false, remember: { kubernetesSecrets: [rotated] } });
});

test('merging credentials into a record: node-wide access wins, secrets kept once per coordinates, sorted', () => {
  const now = '2026-02-02T00:00:00Z';
  const r0 = record({});
  const r1 = mergeCredentials(r0, 'reg.io/a', { kubernetesSecrets: [{ uid: 'u2', namespace: 'b', name: 'x', credentialHash: 'h' }] }, now);
  assert.equal(r1.changed, true);
  assert.equal(r1.record.lastUpdatedTime, now);
  const r2 = mergeCredentials(r1.record, 'reg.io/a', { kubernetesSecrets: [{ uid: 'u1', namespace: 'a', name: 'y', credentialHash: 'h' }] }, now);
  assert.deepEqual(r2.record.credentialMapping['reg.io/a']!.kubernetesSecrets!.map(s => s.namespace), ['a', 'b']);
  assert.equal(mergeCredentials(r2.record, 'reg.io/a', { kubernetesSecrets: [{ uid: 'u1', namespace: 'a', name: 'y', credentialHash: 'h' }] }, now).changed, false);
  assert.equal(mergeCredentials(r2.record, 'reg.io/a', undefined, now).changed, false);
  const open = mergeCredentials(r2.record, 'reg.io/a', { nodePodsAccessible: true }, now);
  assert.deepEqual(open.record.credentialMapping['reg.io/a'], { nodePodsAccessible: true });
  assert.equal(mergeCredentials(open.record, 'reg.io/a', { kubernetesSecrets: [s1] }, now).changed, false, 'node-wide access is never narrowed');
});

test('configuration checks in the kubelet\'s words', () => {
  assert.deepEqual(imagePullConfigProblems(undefined, undefined, true), []);
  assert.deepEqual(imagePullConfigProblems('Sometimes', [], true), ['option "Sometimes" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"']);
  assert.deepEqual(imagePullConfigProblems('AlwaysVerify', ['reg.io/a'], true), ['can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"']);
  assert.deepEqual(imagePullConfigProblems('NeverVerifyAllowlistedImages', ['reg.io/a', 'reg.io/b:1'], true), ['invalid image pattern in `preloadedImagesVerificationAllowlist`: neither tag nor digest is accepted in an image reference: reg.io/b:1']);
  assert.deepEqual(imagePullConfigProblems('AlwaysVerify', ['reg.io/a'], false), [
    '`imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
    '`preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
  ]);
});

test('the configuration refuses a bad policy, and the fields with the gate off', async () => {
  const { withDefaults } = await import('../../../../src/agent/config/defaults.ts');
  const { validateConfig } = await import('../../../../src/agent/config/validate.ts');
  assert.deepEqual(validateConfig(withDefaults({ imagePullCredentialsVerificationPolicy: 'NeverVerifyAllowlistedImages', preloadedImagesVerificationAllowlist: ['registry.io/team/*'] })), []);
  assert.deepEqual(validateConfig(withDefaults({ imagePullCredentialsVerificationPolicy: 'Sometimes' })), ['option "Sometimes" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"']);
  assert.deepEqual(validateConfig(withDefaults({ featureGates: { KubeletEnsureSecretPulledImages: false }, imagePullCredentialsVerificationPolicy: 'AlwaysVerify' })), ['`imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled']);
});
