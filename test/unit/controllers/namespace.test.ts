import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../src/client/rest.ts';
import { silentLogger } from '../../../src/api/log.ts';
import { startNamespaceController } from '../../../src/controllers/namespace.ts';
import { until } from '../client/fake-api-server.ts';
import { startFakeCluster } from './fake-cluster.ts';

test('a terminating namespace is emptied, then finalized; other namespaces are left alone', async t => {
  const cluster = await startFakeCluster({ podGraceMs: 300 });
  t.after(() => cluster.close());
  const { server } = cluster;
  cluster.put('/api/v1/namespaces/doomed', cluster.terminatingNamespace('doomed'));
  cluster.put('/api/v1/namespaces/alive', { metadata: { name: 'alive' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  for (const n of ['c1', 'c2']) cluster.put(`/api/v1/namespaces/doomed/configmaps/${n}`, { metadata: { name: n, namespace: 'doomed' } });
  cluster.put('/api/v1/namespaces/doomed/pods/p1', { metadata: { name: 'p1', namespace: 'doomed' } });
  cluster.put('/apis/example.com/v1/namespaces/doomed/widgets/w1', { metadata: { name: 'w1', namespace: 'doomed', finalizers: ['example.com/hold'] } });
  cluster.put('/api/v1/namespaces/alive/configmaps/keep', { metadata: { name: 'keep', namespace: 'alive' } });

  const client = createClient({ server: server.url });
  t.after(() => client.close());
  const ctl = startNamespaceController(client, silentLogger, { recheckMs: 50 });
  t.after(() => ctl.stop());

  // the widget's finalizer holds the namespace: the conditions say so and nothing is finalized
  const conditions = () => (cluster.objects.get('/api/v1/namespaces/doomed')?.status?.conditions ?? []) as Array<{ type: string; status: string; reason: string; message: string }>;
  await until(() => conditions().some(c => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'), 5000, 'finalizers-remaining condition');
  const byType = Object.fromEntries(conditions().map(c => [c.type, c]));
  assert.equal(byType.NamespaceFinalizersRemaining!.message, 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances');
  assert.equal(byType.NamespaceContentRemaining!.reason, 'SomeResourcesRemain');
  assert.match(byType.NamespaceContentRemaining!.message, /widgets\.example\.com has 1 resource instances/);
  assert.equal(byType.NamespaceDeletionDiscoveryFailure!.status, 'False');
  assert.deepEqual(cluster.names('doomed', 'api/v1', 'configmaps'), []);
  assert.equal(server.callsTo('PUT', '/api/v1/namespaces/doomed/finalize').length, 0);
  // configmaps went as a collection, pods (no deletecollection) one by one, with background propagation
  const cmDelete = server.callsTo('DELETE', '/api/v1/namespaces/doomed/configmaps');
  assert.ok(cmDelete.length >= 1);
  assert.equal(cmDelete[0]!.body.propagationPolicy, 'Background');
  assert.ok(server.callsTo('DELETE', '/api/v1/namespaces/doomed/pods/p1').length >= 1);
  assert.equal(server.callsTo('DELETE', '/api/v1/namespaces/doomed/pods').length, 0);
  assert.equal(server.callsTo('DELETE', '/api/v1/namespaces/doomed/bindings').length, 0, 'resources without delete are skipped');

  // the widget's owner lets go: the namespace is finalized and goes
  cluster.objects.delete('/apis/example.com/v1/namespaces/doomed/widgets/w1');
  await until(() => !cluster.objects.has('/api/v1/namespaces/doomed'), 8000, 'namespace finalized');
  const fin = server.callsTo('PUT', '/api/v1/namespaces/doomed/finalize');
  assert.equal(fin.length, 1);
  assert.deepEqual(fin[0]!.body.spec.finalizers, []);
  assert.deepEqual(cluster.names('doomed', 'api/v1', 'pods'), [], 'the graceful pod was gone before finalizing');

  assert.deepEqual(cluster.names('alive', 'api/v1', 'configmaps'), ['keep']);
  assert.equal(server.calls.filter(c => c.path.includes('/namespaces/alive') && c.method !== 'GET').length, 0);
});

test('a namespace deleted while the controller runs is finalized, keeping other finalizers', async t => {
  const cluster = await startFakeCluster();
  t.after(() => cluster.close());
  cluster.put('/api/v1/namespaces/later', { metadata: { name: 'later' }, spec: { finalizers: ['example.com/mine', 'kubernetes'] }, status: { phase: 'Active' } });
  const client = createClient({ server: cluster.server.url });
  t.after(() => client.close());
  const ctl = startNamespaceController(client, silentLogger, { recheckMs: 50 });
  t.after(() => ctl.stop());
  await until(() => cluster.server.calls.some(c => c.query.get('watch')), 3000, 'namespace watch');
  assert.equal(cluster.server.callsTo('PUT', /finalize$/).length, 0, 'an Active namespace is not touched');

  // the deletion reaches the controller as a watch event
  await client.delete('/api/v1/namespaces/later');
  await until(() => cluster.server.callsTo('PUT', '/api/v1/namespaces/later/finalize').length === 1, 5000, 'finalize');
  assert.deepEqual(cluster.objects.get('/api/v1/namespaces/later')!.spec.finalizers, ['example.com/mine']);
});
