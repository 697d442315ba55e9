// Pods and workloads under PodSecurity, through the plugin alone: enforce refuses a pod (audit
// annotations kept, no warning), warn and audit on allowed pods, workloads' templates warned
// about and audited but never refused, which pod updates are checked again, and exemptions
// with the audit annotation saying why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, ns, podObject, psa } from './harness.ts';
import { c, restrictedPod } from './pods.ts';

const restrictedDetail = 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const plain = { containers: [c('c')] };
const privileged = { containers: [c('c', { privileged: true })] };
const createPod = (h: ReturnType<typeof harness>, namespace: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  h.call({ operation: 'CREATE', resource: ['', 'pods'], namespace, object: podObject('p', namespace, spec), ...extra });

function setup() {
  const h = harness({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { usernames: ['ci'], runtimeClasses: ['kata'], namespaces: ['tools'] } });
  h.namespaces.set('strict', ns('strict', psa({ enforce: 'restricted' })));
  h.namespaces.set('mixed', ns('mixed', psa({ enforce: 'baseline', warn: 'restricted', 'warn-version': 'v1.33', audit: 'restricted', 'audit-version': 'v1.36' })));
  h.namespaces.set('open', ns('open'));
  h.namespaces.set('broken', ns('broken', psa({ enforce: 'strict' })));
  return h;
}

test('enforce: the refusal in kube-apiserver\'s words, with the enforce and audit annotations and no warning', async () => {
  const h = setup();
  const r = await createPod(h, 'mixed', privileged);
  assert.equal(r.error?.code, 403);
  assert.equal(r.error?.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
  assert.deepEqual(r.error?.status.details, { name: 'p', kind: 'pods' });
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.annotations, {
    'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
    'pod-security.kubernetes.io/audit-violations': `would violate PodSecurity "restricted:v1.36": privileged (container "c" must not set securityContext.privileged=true), ${restrictedDetail}`,
  });
  assert.equal((await createPod(h, 'strict', plain)).error?.message, `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`);
});

test('warn and audit on an allowed pod; an explicit enforce level stricter than warn is warned at too', async () => {
  const h = setup();
  const r = await createPod(h, 'mixed', plain);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.warnings, [`would violate PodSecurity "restricted:v1.33": ${restrictedDetail}`]);
  assert.equal(r.annotations['pod-security.kubernetes.io/audit-violations'], `would violate PodSecurity "restricted:v1.36": ${restrictedDetail}`);
  const ok = await createPod(h, 'strict', restrictedPod());
  assert.deepEqual([ok.error, ok.warnings, ok.annotations], [undefined, [], { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' }]);
  // a namespace without labels: privileged everywhere
  assert.deepEqual((await createPod(h, 'open', privileged)).annotations, { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
});

test('unreadable labels: enforce is restricted, and the error is an audit annotation', async () => {
  const h = setup();
  const r = await createPod(h, 'broken', plain);
  assert.equal(r.error?.message, `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${restrictedDetail}`);
  assert.equal(r.annotations['pod-security.kubernetes.io/error'], 'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
});

test('workloads: templates warned about and audited, never refused; RCs without a template pass', async () => {
  const h = setup();
  const template = { metadata: { labels: { a: 'b' } }, spec: plain };
  const kinds: [string, string, Record<string, unknown>][] = [
    ['apps', 'deployments', { spec: { template } }], ['apps', 'replicasets', { spec: { template } }], ['apps', 'statefulsets', { spec: { template } }],
    ['apps', 'daemonsets', { spec: { template } }], ['batch', 'jobs', { spec: { template } }], ['batch', 'cronjobs', { spec: { jobTemplate: { spec: { template } } } }],
    ['', 'replicationcontrollers', { spec: { template } }], ['', 'podtemplates', { template }],
  ];
  for (const [group, resource, body] of kinds) {
    const r = await h.call({ operation: 'CREATE', resource: [group, resource], namespace: 'strict', object: { metadata: { name: 'w' }, ...body } as never });
    assert.equal(r.error, undefined, resource);
    assert.deepEqual(r.warnings, [`would violate PodSecurity "restricted:latest": ${restrictedDetail}`], resource);
    // no enforce-policy annotation: enforce does not apply to workloads
    assert.deepEqual(r.annotations, {}, resource);
  }
  const audited = await h.call({ operation: 'CREATE', resource: ['apps', 'deployments'], namespace: 'mixed', object: { metadata: { name: 'd' }, spec: { template: { spec: privileged } } } as never });
  assert.deepEqual(audited.annotations, { 'pod-security.kubernetes.io/audit-violations': `would violate PodSecurity "restricted:v1.36": privileged (container "c" must not set securityContext.privileged=true), ${restrictedDetail}` });
  assert.deepEqual(audited.warnings, [`would violate PodSecurity "restricted:v1.33": privileged (container "c" must not set securityContext.privileged=true), ${restrictedDetail}`]);
  // enforce restricted but warn explicitly baseline: the template is only held to baseline
  h.namespaces.set('quiet', ns('quiet', psa({ enforce: 'restricted', warn: 'baseline' })));
  assert.deepEqual((await h.call({ operation: 'CREATE', resource: ['apps', 'deployments'], namespace: 'quiet', object: { metadata: { name: 'd' }, spec: { template } } as never })).warnings, []);
  assert.deepEqual((await h.call({ operation: 'CREATE', resource: ['', 'replicationcontrollers'], namespace: 'strict', object: { metadata: { name: 'rc' }, spec: {} } as never })).warnings, []);
  // subresources of workloads (scale, status) are not looked at
  assert.deepEqual((await h.call({ operation: 'UPDATE', resource: ['apps', 'deployments'], subresource: 'scale', namespace: 'strict', object: { metadata: { name: 'w' }, spec: { template } } as never })).warnings, []);
});

test('pod updates: checked again only when images or the set of containers change', async () => {
  const h = setup();
  const old = podObject('p', 'strict', plain);
  const upd = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}, subresource = '') => h.call({ operation: 'UPDATE', resource: ['', 'pods'], subresource, namespace: 'strict', object: podObject('p', 'strict', spec, meta), oldObject: old });
  assert.equal((await upd(plain, { labels: { x: 'y' }, annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } })).error, undefined);
  assert.equal((await upd({ containers: [c('c', {}, { image: 'other' })] })).error?.code, 403);
  assert.equal((await upd({ ...plain, ephemeralContainers: [c('debug')] }, {}, 'ephemeralcontainers')).error?.code, 403);
  for (const sub of ['status', 'binding', 'eviction', 'exec', 'attach', 'log', 'portforward', 'proxy']) {
    assert.equal((await upd({ containers: [c('c', {}, { image: 'other' })] }, {}, sub)).error, undefined, sub);
  }
});

test('exempt namespaces, users and runtime classes pass, and say why', async () => {
  const h = setup();
  h.namespaces.set('tools', ns('tools', psa({ enforce: 'restricted' })));
  assert.deepEqual((await createPod(h, 'tools', privileged)).annotations, { 'pod-security.kubernetes.io/exempt': 'namespace' });
  assert.deepEqual((await createPod(h, 'strict', privileged, { user: { name: 'ci', groups: [] } })).annotations, { 'pod-security.kubernetes.io/exempt': 'user' });
  const rc = await createPod(h, 'strict', { ...privileged, runtimeClassName: 'kata' });
  assert.deepEqual([rc.error, rc.annotations], [undefined, { 'pod-security.kubernetes.io/exempt': 'runtimeClass' }]);
  const w = await h.call({ operation: 'CREATE', resource: ['apps', 'deployments'], namespace: 'strict', user: { name: 'ci', groups: [] }, object: { metadata: { name: 'd' }, spec: { template: { spec: plain } } } as never });
  assert.deepEqual([w.warnings, w.annotations], [[], { 'pod-security.kubernetes.io/exempt': 'user' }]);
});

test('a namespace that cannot be read: a pod is refused with an internal error, a workload passes; both say why in an annotation', async () => {
  const h = setup();
  const r = await createPod(h, 'ghost', plain);
  assert.equal(r.error?.code, 500);
  assert.equal(r.error?.message, 'Internal error occurred: failed to lookup namespace "ghost"');
  assert.deepEqual(r.annotations, { 'pod-security.kubernetes.io/error': 'Internal error occurred: failed to lookup namespace "ghost": namespaces "ghost" not found' });
  const w = await h.call({ operation: 'CREATE', resource: ['apps', 'deployments'], namespace: 'ghost', object: { metadata: { name: 'd' }, spec: { template: { spec: plain } } } as never });
  assert.deepEqual([w.error, w.annotations], [undefined, { 'pod-security.kubernetes.io/error': 'failed to lookup namespace "ghost": namespaces "ghost" not found' }]);
});
