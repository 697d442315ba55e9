// Namespace writes under PodSecurity: unreadable labels refused in kube-apiserver's words, and a
// tightened enforce level answered with warnings about the pods already there (grouped by
// reasons, one per controller first, at most 3000 pods and a second), or about the namespace
// being exempt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, ns, podObject, psa } from './harness.ts';
import { c } from './pods.ts';

const update = (h: ReturnType<typeof harness>, name: string, before: Record<string, string>, after: Record<string, string>) =>
  h.call({ operation: 'UPDATE', resource: ['', 'namespaces'], name, namespace: '', object: ns(name, after), oldObject: ns(name, before) });

test('unreadable labels refuse a create, and an update that changes them, with Invalid in kube-apiserver\'s words', async () => {
  const h = harness();
  const one = await h.call({ operation: 'CREATE', resource: ['', 'namespaces'], object: ns('x', psa({ enforce: 'strict' })) });
  assert.equal(one.error?.code, 422);
  assert.equal(one.error?.message, 'Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  assert.deepEqual(one.error?.status.details, { name: 'x', kind: 'Namespace', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }] });
  const two = await h.call({ operation: 'CREATE', resource: ['', 'namespaces'], object: ns('x', psa({ warn: 'loud', 'warn-version': '1.30' })) });
  assert.equal(two.error?.message, 'Namespace "x" is invalid: [metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]');
  // an update that keeps the same bad labels passes; one that changes them does not
  assert.equal((await update(h, 'x', psa({ enforce: 'strict' }), { ...psa({ enforce: 'strict' }), other: 'label' })).error, undefined);
  assert.equal((await update(h, 'x', psa({ enforce: 'strict' }), psa({ enforce: 'stricter' }))).error?.code, 422);
  assert.equal((await update(h, 'x', {}, psa({ 'audit-version': 'v1' }))).error?.message, 'Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v1": must be "latest" or "v1.x"');
});

test('a tightened enforce level warns about existing pods: grouped by reasons under the first name, sorted', async () => {
  const h = harness({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { runtimeClasses: ['kata'] } });
  const host = { hostNetwork: true, containers: [c('c')] };
  h.pods.push(
    podObject('zeta', 'app', host), podObject('beta', 'app', host), podObject('mid', 'app', host),
    podObject('alpha', 'app', { containers: [c('c', { privileged: true })] }),
    podObject('fine', 'app', { containers: [c('c')] }),
    podObject('kata', 'app', { runtimeClassName: 'kata', containers: [c('c', { privileged: true })] }),
    podObject('elsewhere', 'other', host),
  );
  const r = await update(h, 'app', {}, psa({ enforce: 'baseline' }));
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, [
    'existing pods in namespace "app" violate the new PodSecurity enforce level "baseline:latest"',
    'alpha: privileged',
    'beta (and 2 other pods): host namespaces',
  ]);
  const restricted = await update(h, 'app', psa({ enforce: 'baseline' }), psa({ enforce: 'restricted', 'enforce-version': 'v1.30' }));
  assert.deepEqual(restricted.warnings, [
    'existing pods in namespace "app" violate the new PodSecurity enforce level "restricted:v1.30"',
    'alpha: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'beta (and 2 other pods): host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'fine: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
});

test('no pods are checked unless enforce tightens: same policy, privileged, a relaxed level at the same version', async () => {
  const h = harness();
  h.pods.push(podObject('p', 'app', { hostPID: true, containers: [c('c')] }));
  for (const [before, after] of [
    [psa({ enforce: 'baseline' }), psa({ enforce: 'baseline', warn: 'restricted' })],
    [psa({ enforce: 'restricted' }), psa({ enforce: 'privileged' })],
    [psa({ enforce: 'restricted' }), psa({ enforce: 'baseline' })],
    [psa({ enforce: 'restricted', 'enforce-version': 'v1.30' }), {}],
  ] as const) assert.deepEqual((await update(h, 'app', before, after)).warnings, [], JSON.stringify(after));
  // a relaxed level at another version is checked
  assert.deepEqual((await update(h, 'app', psa({ enforce: 'restricted' }), psa({ enforce: 'baseline', 'enforce-version': 'v1.30' }))).warnings, [
    'existing pods in namespace "app" violate the new PodSecurity enforce level "baseline:v1.30"', 'p: host namespaces',
  ]);
});

test('pods of one controller count after one pod of every other; at most 3000 pods, within a second', async () => {
  const h = harness();
  const owned = (uid: string) => ({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true }] });
  for (let i = 0; i < 3001; i++) h.pods.push(podObject(`rs-${String(i).padStart(4, '0')}`, 'big', { containers: [c('c', { privileged: true })] }, owned('rs')));
  h.pods.push(podObject('solo', 'big', { hostIPC: true, containers: [c('c')] }));
  assert.deepEqual((await update(h, 'big', {}, psa({ enforce: 'baseline' }))).warnings, [
    'new PodSecurity enforce level only checked against the first 3000 of 3002 existing pods',
    'existing pods in namespace "big" violate the new PodSecurity enforce level "baseline:latest"',
    'rs-0000 (and 2998 other pods): privileged',
    'solo: host namespaces',
  ]);
  // each clock reading 300 ms later: the deadline (1.3 s) passes while the fourth pod is checked
  h.tick = 300;
  h.pods.splice(0, h.pods.length, ...['a', 'b', 'c', 'd', 'e'].map(n => podObject(n, 'slow', { hostPID: true, containers: [c('c')] })));
  assert.deepEqual((await update(h, 'slow', {}, psa({ enforce: 'baseline' }))).warnings, [
    'new PodSecurity enforce level only checked against the first 4 of 5 existing pods',
    'existing pods in namespace "slow" violate the new PodSecurity enforce level "baseline:latest"',
    'a (and 3 other pods): host namespaces',
  ]);
  h.listFails = true;
  assert.deepEqual((await update(h, 'slow', {}, psa({ enforce: 'baseline' }))).warnings, ['failed to list pods while checking new PodSecurity enforce level']);
});

test('an exempt namespace is not checked; a non-privileged policy set on it draws a warning naming what was set', async () => {
  const h = harness({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { audit: 'baseline' }, exemptions: { namespaces: ['kube-system'] } });
  h.pods.push(podObject('p', 'kube-system', { hostPID: true, containers: [c('c')] }));
  assert.deepEqual((await update(h, 'kube-system', {}, psa({ enforce: 'restricted', 'enforce-version': 'v1.0', audit: 'restricted', warn: 'baseline' }))).warnings, [
    'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored',
  ]);
  // only modes set by a label are named: not audit (the default), nor warn (following enforce)
  assert.deepEqual((await update(h, 'kube-system', {}, psa({ enforce: 'baseline' }))).warnings, [
    'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=baseline:latest) will be ignored',
  ]);
  // a create never warns (kube-apiserver has no request namespace for it); labels equal to the defaults do not either
  assert.deepEqual((await update(h, 'kube-system', psa({ enforce: 'restricted' }), psa({ audit: 'baseline' }))).warnings, []);
  assert.deepEqual((await h.call({ operation: 'CREATE', resource: ['', 'namespaces'], object: ns('kube-system', psa({ enforce: 'baseline' })) })).warnings, []);
});
