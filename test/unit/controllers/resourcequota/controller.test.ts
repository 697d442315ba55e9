// The resourcequota controller against a real API server: status.hard follows spec.hard,
// status.used follows the objects of the namespace (a finished pod stops counting, a deleted
// object is given back, a count/<resource>.<group> of any served resource is counted).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { eventually, startInProcessApi } from '../../support/in-process-api.ts';

test('status.used is counted, kept current as objects change, and status.hard follows spec', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  // the service account controller too: pods need their namespace's default account
  const ctl = startControllers({ client, enabled: ['resourcequota', 'serviceaccount-controller'], log: silentLogger });
  t.after(() => ctl.stop());

  await client.create('/api/v1/namespaces', { metadata: { name: 'team' } });
  // the ServiceAccount admission plugin wants the account a pod runs as (no controller makes it here)
  await client.create('/api/v1/namespaces/team/serviceaccounts', { metadata: { name: 'default' } });
  const ns = '/api/v1/namespaces/team';
  const pod = (name: string, cpu: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu, memory: '64Mi' }, limits: { cpu, memory: '64Mi' } } }] } });
  await client.create(`${ns}/pods`, pod('a', '250m'));
  await client.create(`${ns}/pods`, pod('b', '500m'));
  await client.create(`${ns}/configmaps`, { metadata: { name: 'one' }, data: {} });
  await client.create('/apis/batch/v1/namespaces/team/jobs', { metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
  const hard = { pods: '5', 'count/pods': '5', 'requests.cpu': '2', 'limits.memory': '1Gi', configmaps: '3', 'count/jobs.batch': '1', services: '2' };
  await client.create(`${ns}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard } });

  const used = (want: Record<string, string>) => eventually(async () => {
    const q = await client.get(`${ns}/resourcequotas/q`);
    return JSON.stringify(q.status?.used) === JSON.stringify(want) ? q : undefined;
  }, `used ${JSON.stringify(want)}`);
  const q = await used({ configmaps: '1', 'count/jobs.batch': '1', 'count/pods': '2', 'limits.memory': '128Mi', pods: '2', 'requests.cpu': '750m', services: '0' });
  assert.deepEqual(q.status.hard, hard);

  // a pod that finished costs nothing but its object count
  const b = await client.get(`${ns}/pods/b`);
  await client.update(`${ns}/pods/b/status`, { ...b, status: { ...b.status, phase: 'Succeeded' } });
  await used({ configmaps: '1', 'count/jobs.batch': '1', 'count/pods': '2', 'limits.memory': '64Mi', pods: '1', 'requests.cpu': '250m', services: '0' });

  await client.delete(`${ns}/configmaps/one`);
  await client.delete(`${ns}/pods/b`);
  await used({ configmaps: '0', 'count/jobs.batch': '1', 'count/pods': '1', 'limits.memory': '64Mi', pods: '1', 'requests.cpu': '250m', services: '0' });

  // a new spec.hard: status.hard follows, and used keeps only the names still limited
  const cur = await client.get(`${ns}/resourcequotas/q`);
  await client.update(`${ns}/resourcequotas/q`, { ...cur, spec: { hard: { pods: '4', 'count/jobs.batch': '1' } } });
  const after = await used({ 'count/jobs.batch': '1', pods: '1' });
  assert.deepEqual(after.status.hard, { 'count/jobs.batch': '1', pods: '4' });
});
