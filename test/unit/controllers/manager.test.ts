import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { createClient } from '../../../src/client/rest.ts';
import { controllerNames, selectControllers, startControllers } from '../../../src/controllers/manager.ts';
import { until } from '../client/fake-api-server.ts';
import { startFakeCluster } from './fake-cluster.ts';

test('--controllers selects as kube-controller-manager does', () => {
  assert.ok(controllerNames().includes('namespace'));
  assert.deepEqual(selectControllers(['*']), controllerNames());
  const allBut = (n: string) => controllerNames().filter(c => c !== n);
  assert.deepEqual(selectControllers(['*', '-namespace']), allBut('namespace'));
  assert.deepEqual(selectControllers(['node-lifecycle-controller', 'namespace-controller']), ['namespace', 'nodelifecycle']);
  // the first mention of a name wins, wherever `*` is
  assert.deepEqual(selectControllers(['-namespace', '*']), allBut('namespace'));
  // Kubernetes' names and their aliases
  assert.deepEqual(selectControllers(['garbagecollector']), ['garbage-collector-controller']);
  assert.deepEqual(selectControllers(['replicaset-controller', 'replicationcontroller-controller', 'deployment-controller']), ['replicaset', 'replicationcontroller', 'deployment']);
  assert.deepEqual(selectControllers(['*', '-replicaset-controller']), allBut('replicaset'));
  assert.deepEqual(selectControllers(['job', 'cronjob']), ['job-controller', 'cronjob-controller']);
  assert.deepEqual(selectControllers(['*', '-ttl-after-finished']), allBut('ttl-after-finished-controller'));
  assert.deepEqual(selectControllers(['statefulset-controller', 'daemonset-controller']), ['statefulset', 'daemonset']);
  assert.deepEqual(selectControllers(['endpoint', 'endpointslice']), ['endpoints-controller', 'endpointslice-controller']);
  assert.deepEqual(selectControllers(['*', '-endpoint']), allBut('endpoints-controller'));
  assert.deepEqual(selectControllers(['persistentvolume-binder-controller', 'pv-protection']), ['persistentvolume-binder', 'pv-protection']);
  assert.deepEqual(selectControllers(['namespace', '-namespace']), ['namespace']);
  assert.deepEqual(selectControllers(['namespace']), ['namespace']);
  assert.deepEqual(selectControllers([]), []);
  assert.throws(() => selectControllers(['nope']), /unknown controller "nope"/);
  assert.throws(() => selectControllers(['*', '-nope']), /unknown controller "nope"/);
});

test('startControllers runs the selected controllers against the API and stops them', async t => {
  const cluster = await startFakeCluster();
  t.after(() => cluster.close());
  const client = createClient({ server: cluster.server.url });
  t.after(() => client.close());

  const none = startControllers({ client, enabled: ['*', ...controllerNames().map(n => `-${n}`)], log: silentLogger });
  await new Promise(r => setTimeout(r, 50));
  assert.equal(cluster.server.calls.length, 0);
  none.stop();

  const running = startControllers({ client, enabled: ['*'], log: silentLogger });
  await until(() => cluster.server.calls.some(c => c.path === '/api/v1/namespaces' && c.query.get('watch')), 3000, 'namespace watch');
  running.stop();
});

test('the StatefulSet and DaemonSet controllers answer to their kube-controller-manager names', () => {
  assert.deepEqual(selectControllers(['statefulset-controller', 'daemonset-controller']), ['statefulset', 'daemonset']);
  assert.ok(!selectControllers(['*', '-statefulset-controller']).includes('statefulset'));
  assert.ok(selectControllers(['*']).includes('daemonset'));
});
