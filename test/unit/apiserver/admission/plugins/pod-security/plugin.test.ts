// PodSecurity through the handlers: enforce refuses in kube-apiserver's words (dry runs too),
// warn answers with a Warning, workloads are warned about but never refused, updates that
// change nothing the checks read pass, and a namespace's enforce label change warns about the
// pods already there.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../../support/fake-request.ts';

let api: TestApi;
const label = (mode: string, level: string) => ({ [`pod-security.kubernetes.io/${mode}`]: level });
before(async () => {
  api = await testApi({ admission: ['PodSecurity'] });
  const ns = (name: string, labels: Record<string, string>) => api.request('POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } });
  assert.equal((await ns('strict', { ...label('enforce', 'restricted') })).status, 201);
  assert.equal((await ns('mixed', { ...label('enforce', 'baseline'), ...label('warn', 'restricted'), 'pod-security.kubernetes.io/warn-version': 'v1.33' })).status, 201);
  assert.equal((await ns('open', {})).status, 201);
});
after(() => api.close());

const pod = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...extra } });
const restrictedMessage = (name: string, policy = 'restricted:latest') => `pods "${name}" is forbidden: violates PodSecurity "${policy}": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

test('enforce: a pod that violates the level is 403 Forbidden in kube-apiserver\'s words, dry run or not; a compliant one is created', async () => {
  for (const q of ['', '?dryRun=All']) {
    const r = await api.request('POST', `/api/v1/namespaces/strict/pods${q}`, { body: pod('x') });
    assert.equal(r.status, 403);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: restrictedMessage('x'), reason: 'Forbidden', details: { name: 'x', kind: 'pods' }, code: 403 });
  }
  const ok = await api.request('POST', '/api/v1/namespaces/strict/pods', { body: { metadata: { name: 'ok' }, spec: { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', image: 'i', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] } } });
  assert.equal(ok.status, 201, ok.text());
  assert.equal((await api.request('POST', '/api/v1/namespaces/open/pods', { body: pod('anything', { hostNetwork: true }) })).status, 201);
});

test('warn: the pod is created with a Warning naming the warn policy; a refused pod gets no warning', async () => {
  const r = await api.request('POST', '/api/v1/namespaces/mixed/pods', { body: pod('warned') });
  assert.equal(r.status, 201);
  assert.deepEqual(r.headers.warning, [`299 - ${JSON.stringify(restrictedMessage('warned', 'restricted:v1.33').replace('pods "warned" is forbidden: violates', 'would violate'))}`]);
  const refused = await api.request('POST', '/api/v1/namespaces/mixed/pods', { body: pod('priv', { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] }) });
  assert.equal(refused.status, 403);
  assert.equal(refused.json().message, 'pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
  assert.equal(refused.headers.warning, undefined);
});

test('workloads: their pod templates are warned about for the enforce level, never refused', async () => {
  const r = await api.request('POST', '/apis/apps/v1/namespaces/strict/deployments', { body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } });
  assert.equal(r.status, 201);
  assert.deepEqual(r.headers.warning, [`299 - ${JSON.stringify(restrictedMessage('x').replace('pods "x" is forbidden: violates', 'would violate'))}`]);
  assert.equal((await api.request('POST', '/apis/apps/v1/namespaces/open/deployments', { body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } })).headers.warning, undefined);
});

test('a pod update that changes no image is not checked; the namespace\'s enforce label tightened warns about the pods there', async () => {
  await api.request('POST', '/api/v1/namespaces/open/pods', { body: pod('second') });
  await api.request('POST', '/api/v1/namespaces/open/pods', { body: pod('third') });
  const ns = (await api.request('GET', '/api/v1/namespaces/open')).json();
  const r = await api.request('PUT', '/api/v1/namespaces/open', { body: { ...ns, metadata: { ...ns.metadata, labels: { ...ns.metadata.labels, ...label('enforce', 'baseline') } } } });
  assert.equal(r.status, 200);
  assert.deepEqual(r.headers.warning, [
    '299 - "existing pods in namespace \\"open\\" violate the new PodSecurity enforce level \\"baseline:latest\\""',
    '299 - "anything: host namespaces"',
  ]);
  const again = (await api.request('GET', '/api/v1/namespaces/open')).json();
  const tighter = await api.request('PUT', '/api/v1/namespaces/open', { body: { ...again, metadata: { ...again.metadata, labels: { ...again.metadata.labels, ...label('enforce', 'restricted') } } } });
  assert.deepEqual(tighter.headers.warning, [
    '299 - "existing pods in namespace \\"open\\" violate the new PodSecurity enforce level \\"restricted:latest\\""',
    '299 - "anything: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile"',
    '299 - "second (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile"',
  ]);
  // a label change on a pod that now violates the level goes through
  const p = (await api.request('GET', '/api/v1/namespaces/open/pods/second')).json();
  assert.equal((await api.request('PUT', '/api/v1/namespaces/open/pods/second', { body: { ...p, metadata: { ...p.metadata, labels: { x: 'y' } } } })).status, 200);
  const img = (await api.request('GET', '/api/v1/namespaces/open/pods/second')).json();
  img.spec.containers[0].image = 'other';
  assert.equal((await api.request('PUT', '/api/v1/namespaces/open/pods/second', { body: img })).status, 403);
});

test('namespace labels that cannot be read: 422 Invalid on create and on an update that sets them', async () => {
  const r = await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'typo', labels: label('enforce', 'restricte') } } });
  assert.equal(r.status, 422);
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Invalid', code: 422,
    message: 'Namespace "typo" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "restricte": must be one of privileged, baseline, restricted',
    details: { name: 'typo', kind: 'Namespace', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "restricte": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }] },
  });
  const patched = await api.request('PATCH', '/api/v1/namespaces/open', { headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { 'pod-security.kubernetes.io/warn-version': 'v1.3x' } } } });
  assert.equal(patched.status, 422);
  assert.equal(patched.json().message, 'Namespace "open" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.3x": must be "latest" or "v1.x"');
});

test('AppArmor annotations: carried into the field on create, so both are named, as kube-apiserver names them', async () => {
  const r = await api.request('POST', '/api/v1/namespaces/mixed/pods', { body: { metadata: { name: 'aa', annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "aa" is forbidden: violates PodSecurity "baseline:latest": forbidden AppArmor profiles (container "c" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")');
});
