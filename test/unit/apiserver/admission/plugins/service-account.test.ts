// ServiceAccount through the handlers: the default account, the kube-api-access-<5> token
// volume's exact shape and mounts, the opt-outs, imagePullSecrets, a missing account refused in
// Kubernetes' words, and mirror pods left without credentials.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';

let api: TestApi;
before(async () => {
  api = await testApi({ admission: ['ServiceAccount'] });
  for (const sa of [{ metadata: { name: 'default' } }, { metadata: { name: 'quiet' }, automountServiceAccountToken: false }, { metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'registry' }] }]) {
    assert.equal((await api.request('POST', '/api/v1/namespaces/sa/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', ...sa } })).status, 201);
  }
});
after(() => api.close());

async function create(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  const r = await api.request('POST', '/api/v1/namespaces/sa/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });
  return r;
}
async function created(name: string, spec: Record<string, unknown>) {
  const r = await create(name, spec);
  assert.equal(r.status, 201, r.text());
  return r.json().spec;
}

const mountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

test('a new pod runs as `default` and gets kube-api-access-<5> (token, cluster CA, namespace), mounted read-only in every container', async () => {
  const spec = await created('plain', { initContainers: [{ name: 'init', image: 'i' }] });
  assert.equal(spec.serviceAccountName, 'default');
  assert.equal(spec.volumes.length, 1);
  const v = spec.volumes[0];
  assert.match(v.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(v.projected, {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  });
  for (const c of [...spec.initContainers, ...spec.containers]) assert.deepEqual(c.volumeMounts, [{ name: v.name, readOnly: true, mountPath }]);
});

test('automountServiceAccountToken false on the pod or its service account: no volume; the pod\'s word wins', async () => {
  assert.equal((await created('no-pod', { automountServiceAccountToken: false })).volumes, undefined);
  assert.equal((await created('no-sa', { serviceAccountName: 'quiet' })).volumes, undefined);
  assert.equal((await created('pod-says-yes', { serviceAccountName: 'quiet', automountServiceAccountToken: true })).volumes.length, 1);
});

test('a container with its own mount at the token path keeps it; a pod that already has the volume keeps its name; none needed, none added', async () => {
  const spec = await created('own', {
    volumes: [{ name: 'mine', emptyDir: {} }],
    containers: [{ name: 'a', image: 'i', volumeMounts: [{ name: 'mine', mountPath }] }, { name: 'b', image: 'i' }],
  });
  const added = spec.volumes[1].name;
  assert.deepEqual(spec.containers[0].volumeMounts, [{ name: 'mine', mountPath }]);
  assert.deepEqual(spec.containers[1].volumeMounts, [{ name: added, readOnly: true, mountPath }]);
  const copied = await created('copied', { volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] });
  assert.deepEqual(copied.volumes.map((v: { name: string }) => v.name), ['kube-api-access-abcde']);
  assert.equal(copied.containers[0].volumeMounts[0].name, 'kube-api-access-abcde');
  const all = await created('all-own', { volumes: [{ name: 'mine', emptyDir: {} }], containers: [{ name: 'a', image: 'i', volumeMounts: [{ name: 'mine', mountPath }] }] });
  assert.deepEqual(all.volumes.map((v: { name: string }) => v.name), ['mine']);
});

test('the service account\'s imagePullSecrets, unless the pod names its own', async () => {
  assert.deepEqual((await created('pulls', { serviceAccountName: 'puller' })).imagePullSecrets, [{ name: 'registry' }]);
  assert.deepEqual((await created('pulls-own', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] })).imagePullSecrets, [{ name: 'mine' }]);
});

test('a service account that does not exist: 403 in Kubernetes\' words, nothing created', async () => {
  const r = await create('lost', { serviceAccountName: 'ghost' });
  assert.equal(r.status, 403);
  assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
    message: 'pods "lost" is forbidden: error looking up service account sa/ghost: serviceaccount "ghost" not found', details: { name: 'lost', kind: 'pods' } });
  assert.equal((await api.request('GET', '/api/v1/namespaces/sa/pods/lost')).status, 404);
});

test('mirror pods: no account, no token; one that references an account, a secret or a token is refused', async () => {
  const mirror = { annotations: { 'kubernetes.io/config.mirror': 'hash' } };
  const ok = await create('static-ok', {}, mirror);
  assert.equal(ok.status, 201, ok.text());
  assert.equal(ok.json().spec.serviceAccountName, undefined);
  assert.equal(ok.json().spec.volumes, undefined);
  const cases: [Record<string, unknown>, string][] = [
    [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
    [{ volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
    [{ containers: [{ name: 'c', image: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] }] }, 'a mirror pod may not reference secrets'],
    [{ volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
  ];
  for (const [spec, why] of cases) {
    const r = await create('static-bad', spec, mirror);
    assert.equal(r.status, 403);
    assert.equal(r.json().message, `pods "static-bad" is forbidden: ${why}`);
  }
});
