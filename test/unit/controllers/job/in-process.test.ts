// The Job, CronJob and TTL-after-finished controllers against a real API server in this process.
// No node runs the pods: the test writes their status as a kubelet would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../../src/client/rest.ts';
import { startJobController } from '../../../../src/controllers/job/job-controller.ts';
import { startCronJobController } from '../../../../src/controllers/cronjob/cronjob-controller.ts';
import { startTtlAfterFinishedController } from '../../../../src/controllers/ttl-after-finished.ts';
import { startGarbageCollector } from '../../../../src/controllers/garbage-collector/garbage-collector.ts';

/** polls an async condition (the API's state) until it holds */
async function until(cond: () => Promise<boolean | undefined>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

/** an API server in this process; controllers handed to `run` stop before it does */
async function cluster(t: import('node:test').TestContext): Promise<{ client: Client; run(...c: Array<{ stop(): void }>): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-jobs-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const client = createClient(await loadKubeconfig(server.kubeconfigPath));
  // what the service account controller (not running here) makes: pods need their account
  await client.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
  const running: Array<{ stop(): void }> = [];
  t.after(async () => { for (const c of running) c.stop(); client.close(); await server.shutdown(); rmSync(dir, { recursive: true, force: true }); });
  return { client, run: (...c) => { running.push(...c); } };
}

const jobs = '/apis/batch/v1/namespaces/default/jobs';
const podsPath = '/api/v1/namespaces/default/pods';

async function podsOf(client: Client, job: string): Promise<any[]> {
  return (await client.list<{ items: any[] }>(podsPath, { labelSelector: `batch.kubernetes.io/job-name=${job}` })).items;
}

/** what a kubelet writes when the pod's container exits */
async function finishPod(client: Client, pod: any, phase: 'Succeeded' | 'Failed', exitCode: number): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const fresh = await client.get(`${podsPath}/${pod.metadata.name}`);
  fresh.status = {
    phase,
    conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: now }],
    containerStatuses: [{ name: 'c', image: 'registry.local/app:1.0', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason: phase === 'Succeeded' ? 'Completed' : 'Error', startedAt: now, finishedAt: now } } }],
  };
  await client.update(`${podsPath}/${pod.metadata.name}/status`, fresh);
}

const template = { spec: { containers: [{ name: 'c', image: 'registry.local/app:1.0', command: ['sh', '-c', 'exit 0'] }], restartPolicy: 'Never' } };

test('an Indexed job through the API: pods per index with finalizers, completion counted, Complete, then deleted a second later by its TTL', async t => {
  const { client, run } = await cluster(t);
  // the TTL controller deletes in the foreground: the garbage collector removes the pods, then the job
  run(startJobController(client, silentLogger, { batchMs: 50 }), startTtlAfterFinishedController(client, silentLogger), startGarbageCollector(client, silentLogger, {}));

  const created = await client.create(jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'idx' }, spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, ttlSecondsAfterFinished: 1, template } });
  // the API server's defaults and generated selector
  assert.equal(created.spec.backoffLimit, 6);
  assert.deepEqual(created.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': created.metadata.uid } });
  assert.equal(created.metadata.labels['batch.kubernetes.io/job-name'], 'idx');

  await until(async () => (await podsOf(client, 'idx')).length === 2, 5000, 'two pods');
  const pods = (await podsOf(client, 'idx')).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  assert.deepEqual(pods.map(p => p.spec.hostname), ['idx-0', 'idx-1']);
  assert.ok(pods.every(p => p.metadata.finalizers.includes('batch.kubernetes.io/job-tracking')));
  assert.equal(pods[0].spec.containers[0].env[0].name, 'JOB_COMPLETION_INDEX');
  await until(async () => (await client.get(`${jobs}/idx`)).status?.active === 2, 5000, 'active 2');

  for (const p of pods) await finishPod(client, p, 'Succeeded', 0);
  let job: any;
  await until(async () => (job = await client.get(`${jobs}/idx`)).status?.conditions?.some((c: any) => c.type === 'Complete'), 5000, 'Complete');
  assert.deepEqual(job.status.conditions.map((c: any) => `${c.type}/${c.reason}`), ['SuccessCriteriaMet/CompletionsReached', 'Complete/CompletionsReached']);
  assert.equal(job.status.succeeded, 2);
  assert.equal(job.status.completedIndexes, '0,1');
  assert.equal(job.status.active, 0);
  assert.ok(job.status.completionTime && job.status.startTime);
  await until(async () => (await podsOf(client, 'idx')).every(p => !p.metadata.finalizers?.length), 5000, 'finalizers removed');
  await until(async () => client.get(`${jobs}/idx`).then(() => false, () => true), 15_000, 'job deleted after its TTL');
  assert.equal((await podsOf(client, 'idx')).length, 0, 'its pods went first');
});

test('a failing job reaches BackoffLimitExceeded with its pods\' finalizers removed', async t => {
  const { client, run } = await cluster(t);
  run(startJobController(client, silentLogger, { batchMs: 50 }));
  await client.create(jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'fails' }, spec: { backoffLimit: 0, template } });
  await until(async () => (await podsOf(client, 'fails')).length === 1, 5000, 'one pod');
  const [pod] = await podsOf(client, 'fails');
  await finishPod(client, pod, 'Failed', 3);
  let job: any;
  await until(async () => (job = await client.get(`${jobs}/fails`)).status?.conditions?.some((c: any) => c.type === 'Failed'), 5000, 'Failed');
  assert.deepEqual(job.status.conditions.map((c: any) => `${c.type}/${c.reason}`), ['FailureTarget/BackoffLimitExceeded', 'Failed/BackoffLimitExceeded']);
  assert.equal(job.status.failed, 1);
  assert.equal(job.status.active, 0);
  await until(async () => ((await podsOf(client, 'fails'))[0]?.metadata.finalizers ?? []).length === 0, 5000, 'finalizer removed');
  // events are recorded in the background
  await until(async () => (await client.list<{ items: any[] }>('/api/v1/namespaces/default/events')).items
    .some(e => e.reason === 'BackoffLimitExceeded' && e.source?.component === 'job-controller' && e.involvedObject.name === 'fails'), 5000, 'the BackoffLimitExceeded event');
});

test('a CronJob on a clock a minute ahead starts its job at once, named for the minute', async t => {
  const { client, run } = await cluster(t);
  const cj = await client.create('/apis/batch/v1/namespaces/default/cronjobs', {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'tick' },
    spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { ...template.spec, restartPolicy: 'OnFailure' } } } } },
  });
  const ahead = 61_000;
  run(startCronJobController(client, silentLogger, { clock: { now: () => Date.now() + ahead, after: (ms, fn) => { const h = setTimeout(fn, ms); return { cancel: () => clearTimeout(h) }; } } }));
  let list: any[] = [];
  await until(async () => (list = (await client.list<{ items: any[] }>(jobs)).items).length > 0, 5000, 'a job');
  const job = list[0];
  const minute = Math.floor((Date.parse(cj.metadata.creationTimestamp) + 60_000) / 60_000);
  assert.match(job.metadata.name, /^tick-\d+$/);
  assert.ok(Number(job.metadata.name.slice(5)) >= minute);
  assert.equal(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(Number(job.metadata.name.slice(5)) * 60_000).toISOString().replace('.000Z', 'Z'));
  assert.equal(job.metadata.ownerReferences[0].kind, 'CronJob');
  await until(async () => ((await client.get('/apis/batch/v1/namespaces/default/cronjobs/tick')).status?.active ?? []).length === 1, 5000, 'status.active');
});

test('a job with a manual selector adopts the orphan pod it selects instead of creating one', async t => {
  const { client, run } = await cluster(t);
  await client.create(podsPath, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'stray' } }, spec: template.spec });
  run(startJobController(client, silentLogger, { batchMs: 50 }));
  const job = await client.create(jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'adopter' }, spec: { manualSelector: true, selector: { matchLabels: { app: 'stray' } }, template: { metadata: { labels: { app: 'stray' } }, spec: template.spec } } });
  let pod: any;
  await until(async () => ((pod = await client.get(`${podsPath}/stray`)).metadata.ownerReferences ?? []).length > 0, 5000, 'adoption');
  assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'adopter', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(pod.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
  await until(async () => (await client.get(`${jobs}/adopter`)).status?.active === 1, 5000, 'active 1');
  const all = (await client.list<{ items: any[] }>(podsPath)).items;
  assert.equal(all.length, 1, 'no pod created beside the adopted one');
});
