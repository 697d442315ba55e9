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
import { podSecurityConfig } from '../../../../../../src/apiserver/admission/plugins/pod-security/config.ts';
import { policyName } from '../../../../../../src/apiserver/admission/plugins/pod-security/policy.ts';

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

test('the configuration: unset defaults privileged:latest; bad ones stop the plugin in kube-apiserver\'s words', () => {
  const kind = { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' };
  const d = podSecurityConfig({ ...kind, defaults: { warn: 'restricted', 'audit-version': 'v1.30' } }).defaults;
  assert.deepEqual([d.enforce, d.warn, d.audit].map(policyName), ['privileged:latest', 'restricted:latest', 'privileged:v1.30']);
  assert.equal(policyName(podSecurityConfig(undefined).defaults.enforce), 'privileged:latest');
  assert.equal(podSecurityConfig({ ...kind, apiVersion: 'pod-security.admission.config.k8s.io/v1beta1' }).exemptUsers.size, 0);
  assert.throws(() => podSecurityConfig({ ...kind, defaults: { enforce: 'strict' } }), { message: 'PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted' });
  assert.throws(() => podSecurityConfig({ ...kind, defaults: { enforce: 'strict', 'warn-version': '1.30' } }), { message: 'PodSecurity configuration error: [enforce: must be one of privileged, baseline, restricted, warn-version: must be "latest" or "v1.x"]' });
  assert.throws(() => podSecurityConfig({ ...kind, exemptions: { usernames: ['a', '', 'a'] } }), { message: 'PodSecurity invalid: [exemptions.usernames[1]: Invalid value: "": username must not be empty, exemptions.usernames[2]: Duplicate value: "a"]' });
  assert.throws(() => podSecurityConfig({ ...kind, exemptions: { namespaces: ['Tools'] } }), { message: /^PodSecurity invalid: exemptions\.namespaces\[0\]: Invalid value: "Tools": a lowercase RFC 1123 label must consist of/ });
  assert.throws(() => podSecurityConfig({ apiVersion: 'v1', kind: 'PodSecurityConfiguration' }), /no kind "PodSecurityConfiguration" is registered for version "v1"/);
});
