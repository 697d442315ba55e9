import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoriesFor, namedResources, shortNamesFor, singularNameFor } from '../../../src/schema/resource-names.ts';
import { generatedResources } from '../../../src/schema/generated/resources.ts';

test('short names kubectl users type', () => {
  const expected: Array<[string, string, string[]]> = [
    ['', 'pods', ['po']], ['', 'services', ['svc']], ['apps', 'deployments', ['deploy']], ['', 'namespaces', ['ns']],
    ['', 'configmaps', ['cm']], ['', 'serviceaccounts', ['sa']], ['', 'nodes', ['no']], ['apps', 'replicasets', ['rs']],
    ['apps', 'daemonsets', ['ds']], ['apps', 'statefulsets', ['sts']], ['networking.k8s.io', 'ingresses', ['ing']],
    ['', 'persistentvolumes', ['pv']], ['', 'persistentvolumeclaims', ['pvc']], ['', 'events', ['ev']], ['', 'endpoints', ['ep']],
    ['autoscaling', 'horizontalpodautoscalers', ['hpa']], ['batch', 'cronjobs', ['cj']], ['certificates.k8s.io', 'certificatesigningrequests', ['csr']],
    ['apiextensions.k8s.io', 'customresourcedefinitions', ['crd', 'crds']], ['policy', 'poddisruptionbudgets', ['pdb']],
    ['scheduling.k8s.io', 'priorityclasses', ['pc']], ['networking.k8s.io', 'networkpolicies', ['netpol']], ['', 'limitranges', ['limits']],
    ['', 'resourcequotas', ['quota']], ['', 'replicationcontrollers', ['rc']], ['storage.k8s.io', 'storageclasses', ['sc']],
    ['', 'secrets', []], ['batch', 'jobs', []],
  ];
  for (const [g, r, names] of expected) assert.deepEqual(shortNamesFor(g, r), names, `${g}/${r}`);
});

test('categories: all and api-extensions', () => {
  const all = ['/pods', '/services', '/replicationcontrollers', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', 'batch/jobs', 'batch/cronjobs', 'autoscaling/horizontalpodautoscalers'];
  for (const key of all) {
    const [g, r] = key.split('/') as [string, string];
    assert.deepEqual(categoriesFor(g, r), ['all'], key);
  }
  assert.deepEqual(categoriesFor('', 'configmaps'), []);
  assert.deepEqual(categoriesFor('apiextensions.k8s.io', 'customresourcedefinitions'), ['api-extensions']);
  assert.deepEqual(categoriesFor('admissionregistration.k8s.io', 'validatingwebhookconfigurations'), ['api-extensions']);
  assert.deepEqual(categoriesFor('apiregistration.k8s.io', 'apiservices'), ['api-extensions']);
});

test('every named resource exists in the generated table (no typos)', () => {
  const known = new Set(generatedResources.map(r => `${r.group}/${r.resource}`));
  const named = namedResources();
  assert.ok(named.length > 30);
  for (const key of named) assert.ok(known.has(key), `${key} is not a built-in resource`);
  assert.equal(singularNameFor('', 'endpoints', 'Endpoints'), 'endpoints');
  assert.equal(singularNameFor('', 'componentstatuses', 'ComponentStatus'), 'componentstatus');
});
