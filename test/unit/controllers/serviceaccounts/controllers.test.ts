import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { correctedRootCA, description } from '../../../../src/controllers/serviceaccounts/root-ca-publisher.ts';
import { eventually, startInProcessApi } from '../../support/in-process-api.ts';

test('the root CA ConfigMap is put right only when its data or description differ, keeping what users added', () => {
  const right = { metadata: { name: 'kube-root-ca.crt', labels: { mine: 'x' }, annotations: { 'kubernetes.io/description': description, other: 'y' } }, data: { 'ca.crt': 'PEM' } };
  assert.equal(correctedRootCA(right, 'PEM'), undefined);
  const fixed = correctedRootCA({ ...right, data: { 'ca.crt': 'tampered', extra: '1' } }, 'PEM')!;
  assert.deepEqual(fixed.data, { 'ca.crt': 'PEM' });
  assert.deepEqual(fixed.metadata.labels, { mine: 'x' });
  assert.equal(fixed.metadata.annotations!.other, 'y');
  const described = correctedRootCA({ metadata: { name: 'kube-root-ca.crt' }, data: { 'ca.crt': 'PEM' } }, 'PEM')!;
  assert.equal(described.metadata.annotations!['kubernetes.io/description'], description);
});

test('every active namespace gets the default ServiceAccount and kube-root-ca.crt, again after a delete or an edit', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const rootCA = api.config.ca!.toString('utf8');
  const ctl = startControllers({ client, enabled: ['serviceaccount', 'root-ca-cert-publisher'], log: silentLogger, settings: { rootCA } });
  t.after(() => ctl.stop());

  // the system namespaces that exist from the start, and one made now
  await client.create('/api/v1/namespaces', { metadata: { name: 'team' } });
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team']) {
    await eventually(() => client.get(`/api/v1/namespaces/${ns}/serviceaccounts/default`), `default SA in ${ns}`);
    const cm = await eventually(() => client.get(`/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`), `root CA in ${ns}`);
    assert.deepEqual(cm.data, { 'ca.crt': rootCA });
    assert.equal(cm.metadata.annotations['kubernetes.io/description'], description);
  }
  assert.match(rootCA, /^-----BEGIN CERTIFICATE-----/);

  const sa = await client.get('/api/v1/namespaces/team/serviceaccounts/default');
  await client.delete('/api/v1/namespaces/team/serviceaccounts/default');
  const again = await eventually(() => client.get('/api/v1/namespaces/team/serviceaccounts/default'), 'default SA re-made');
  assert.notEqual(again.metadata.uid, sa.metadata.uid);

  await client.delete('/api/v1/namespaces/team/configmaps/kube-root-ca.crt');
  await eventually(() => client.get('/api/v1/namespaces/team/configmaps/kube-root-ca.crt'), 'root CA re-made');
  await client.patch('/api/v1/namespaces/team/configmaps/kube-root-ca.crt', { data: { 'ca.crt': 'tampered' } });
  await eventually(async () => (await client.get('/api/v1/namespaces/team/configmaps/kube-root-ca.crt')).data['ca.crt'] === rootCA, 'root CA restored');
});
