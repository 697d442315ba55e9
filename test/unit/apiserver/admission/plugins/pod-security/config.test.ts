// PodSecurity configured through --admission-control-config-file: the defaults a namespace
// without labels gets, and exempt namespaces, users and runtime classes (passed, with the
// audit annotation saying why); the AdmissionConfiguration file read inline or by path.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testApi, type TestApi } from '../../../../support/fake-request.ts';
import { readAdmissionConfig } from '../../../../../../src/apiserver/admission/config-file.ts';

const configuration = {
  apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration',
  defaults: { enforce: 'baseline', 'enforce-version': 'latest' },
  exemptions: { usernames: ['trusted'], runtimeClasses: ['sandboxed'], namespaces: ['tools'] },
};

let api: TestApi;
before(async () => {
  api = await testApi({ admission: ['PodSecurity'], pluginConfig: { PodSecurity: configuration } });
  for (const name of ['plain', 'tools']) assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
});
after(() => api.close());

const privileged = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }], ...extra } });

test('a namespace without labels gets the configured default level', async () => {
  const r = await api.request('POST', '/api/v1/namespaces/plain/pods', { body: privileged('p') });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
});

test('exempt namespaces, users and runtime classes pass', async () => {
  assert.equal((await api.request('POST', '/api/v1/namespaces/tools/pods', { body: privileged('in-tools') })).status, 201);
  assert.equal((await api.request('POST', '/api/v1/namespaces/plain/pods', { body: privileged('by-trusted'), user: { name: 'trusted', groups: [] } })).status, 201);
  assert.equal((await api.request('POST', '/api/v1/namespaces/plain/pods', { body: privileged('sandboxed', { runtimeClassName: 'sandboxed' }) })).status, 201);
});

test('the AdmissionConfiguration file: inline configurations and ones in files of their own', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'admission-config-'));
  try {
    await writeFile(join(dir, 'psa.yaml'), `apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults: { enforce: restricted }\n`);
    await writeFile(join(dir, 'admission.yaml'), `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: psa.yaml\n- name: Other\n  configuration: { a: 1 }\n`);
    assert.deepEqual(await readAdmissionConfig(join(dir, 'admission.yaml')), {
      PodSecurity: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'restricted' } },
      Other: { a: 1 },
    });
    await writeFile(join(dir, 'bad.yaml'), 'kind: Something\n');
    await assert.rejects(readAdmissionConfig(join(dir, 'bad.yaml')), /not an apiserver.config.k8s.io\/v1 AdmissionConfiguration/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
