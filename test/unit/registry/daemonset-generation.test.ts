import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../support/fake-request.ts';

const path = '/apis/apps/v1/namespaces/default/daemonsets';
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'a:1' }] } };

test('a DaemonSet carries its template generation: 1 at creation, one more per template change only', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const created = await api.request('POST', path, { body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'a' }, spec: { selector: { matchLabels: { app: 'a' } }, template } } });
  assert.equal(created.status, 201, created.text());
  assert.equal(created.json().metadata.annotations['deprecated.daemonset.template.generation'], '1');
  assert.equal(created.json().metadata.managedFields[0].fieldsV1['f:metadata'], undefined, 'set by the server after the field manager, so no manager owns it');
  const patched = await api.request('PATCH', `${path}/a`, { body: { spec: { template: { spec: { containers: [{ name: 'c', image: 'a:2' }] } } } }, headers: { 'content-type': 'application/strategic-merge-patch+json' } });
  assert.equal(patched.json().metadata.annotations['deprecated.daemonset.template.generation'], '2');
  const other = await api.request('PATCH', `${path}/a`, { body: { spec: { minReadySeconds: 5 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(other.json().metadata.annotations['deprecated.daemonset.template.generation'], '2', 'a change outside the template keeps it');
  assert.equal(other.json().metadata.generation, 3);
});
