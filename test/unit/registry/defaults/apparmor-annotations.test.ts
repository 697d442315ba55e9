// The deprecated AppArmor annotations carried into containers' appArmorProfile fields on create,
// as kube-apiserver's pod strategy does: only where a container has no profile, only valid
// profiles, never one the pod sets already, never on Windows pods.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncAppArmorAnnotations } from '../../../../src/registry/defaults/apparmor-annotations.ts';
import type { CoreV1Pod } from '../../../../src/schema/generated/types.ts';

const key = (c: string) => `container.apparmor.security.beta.kubernetes.io/${c}`;
const pod = (annotations: Record<string, string>, spec: Record<string, unknown>) => ({ metadata: { name: 'p', annotations }, spec }) as unknown as CoreV1Pod;
const profiles = (p: CoreV1Pod) => [...(p.spec!.initContainers ?? []), ...p.spec!.containers].map(c => c.securityContext?.appArmorProfile);

test('each annotation value becomes the container\'s profile when it has none', () => {
  const p = pod({ [key('a')]: 'unconfined', [key('b')]: 'runtime/default', [key('i')]: 'localhost/my-profile', [key('c')]: 'localhost/k8s' },
    { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }, { name: 'b', securityContext: { privileged: false } }, { name: 'c', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }, { name: 'd' }] });
  syncAppArmorAnnotations(p);
  assert.deepEqual(profiles(p), [{ type: 'Localhost', localhostProfile: 'my-profile' }, { type: 'Unconfined' }, { type: 'RuntimeDefault' }, { type: 'RuntimeDefault' }, undefined]);
  assert.equal(p.spec!.containers[1]!.securityContext!.privileged, false);
});

test('nothing is copied that is invalid, already the pod\'s profile, or on a Windows pod', () => {
  for (const value of ['', 'localhost/', 'localhost/ padded', 'something', `localhost/${'x'.repeat(4096)}`]) {
    const p = pod({ [key('a')]: value }, { containers: [{ name: 'a' }] });
    syncAppArmorAnnotations(p);
    assert.deepEqual(profiles(p), [undefined], value);
  }
  const inherited = pod({ [key('a')]: 'runtime/default' }, { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'a' }] });
  syncAppArmorAnnotations(inherited);
  assert.deepEqual(profiles(inherited), [undefined]);
  const windows = pod({ [key('a')]: 'unconfined' }, { os: { name: 'windows' }, containers: [{ name: 'a' }] });
  syncAppArmorAnnotations(windows);
  assert.deepEqual(profiles(windows), [undefined]);
});
