// Jobs and CronJobs as users run them: real kubectl (newest and oldest present) against
// `orch server` with its controllers and a simulated node. `kubectl create job` and `kubectl
// wait --for=condition=complete`, an Indexed job whose pods read their index, a job failing
// into `--for=condition=failed`, `kubectl create cronjob` with `*/1 * * * *` starting its first
// job on the minute, and `kubectl create job --from=cronjob/…`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { skipForMissing } from '../support/requires.ts';

const image = 'registry.local/app:1.0';

const indexedJob = (name: string) => `
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: ${image}
        command: ["sh", "-c", "echo index=$JOB_COMPLETION_INDEX host=$HOSTNAME"]
`;

const failingJob = (name: string) => `
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: ${image}
        command: ["sh", "-c", "exit 3"]
`;

// Each kubectl's cases run beside the other's (their objects have their own names), and the
// CronJob that must wait for the next minute is made first, so that minute passes meanwhile.
test('Jobs and CronJobs through kubectl on a simulated node', { concurrency: true }, async t => {
  const bins = kubectls();
  if (bins.length === 0) return t.skip(skipForMissing('kubectl not installed'));
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [image] });
  t.after(() => pool.stop());
  const k0 = (args: string[], input?: string) => kubectl(bins[0]!.path, orch.kubeconfig, args, input);
  await until('a Ready node', async () => (await k0(['wait', '--for=condition=Ready', 'node', '--all', '--timeout=1s'])).code === 0, 30_000);
  const cj = 'every-minute';
  const minutely = await k0(['create', 'cronjob', cj, `--image=${image}`, '--schedule=*/1 * * * *', '--', 'sh', '-c', 'echo tick']);
  assert.equal(minutely.code, 0, minutely.stderr);

  await Promise.all(bins.map(async ({ label, path }) => {
    const k = (args: string[], input?: string) => kubectl(path, orch.kubeconfig, args, input);
    const v = label.replace(/\W/g, '');
    await t.test(`kubectl ${label}: create job, wait for complete`, async () => {
      const name = `hello-${v}`;
      const created = await k(['create', 'job', name, `--image=${image}`, '--', 'sh', '-c', 'echo hello']);
      assert.equal(created.code, 0, created.stderr);
      const waited = await k(['wait', '--for=condition=complete', `job/${name}`, '--timeout=60s']);
      assert.equal(waited.code, 0, waited.stderr);
      const job = JSON.parse((await k(['get', 'job', name, '-o', 'json'])).stdout);
      assert.equal(job.status.succeeded, 1);
      assert.equal(job.status.ready, 0);
      assert.deepEqual(job.status.conditions.map((c: any) => c.type), ['SuccessCriteriaMet', 'Complete']);
      assert.equal(job.metadata.labels['batch.kubernetes.io/job-name'], name);
      const table = await k(['get', 'job', name]);
      assert.match(table.stdout, new RegExp(`${name}\\s+Complete\\s+1/1\\s+`));
      const pods = JSON.parse((await k(['get', 'pods', '-l', `job-name=${name}`, '-o', 'json'])).stdout).items;
      assert.equal(pods.length, 1);
      assert.equal(pods[0].status.phase, 'Succeeded');
      assert.deepEqual(pods[0].metadata.finalizers ?? [], [], 'the tracking finalizer is gone once counted');
      const logs = await k(['logs', `job/${name}`]);
      assert.equal(logs.stdout.trim(), 'hello', logs.stderr);
    });

    await t.test(`kubectl ${label}: an Indexed job's pods read their index`, async () => {
      const name = `idx-${v}`;
      const applied = await k(['apply', '-f', '-'], indexedJob(name));
      assert.equal(applied.code, 0, applied.stderr);
      const waited = await k(['wait', '--for=condition=complete', `job/${name}`, '--timeout=60s']);
      assert.equal(waited.code, 0, waited.stderr);
      const job = JSON.parse((await k(['get', 'job', name, '-o', 'json'])).stdout);
      assert.equal(job.status.completedIndexes, '0-2');
      const pods = JSON.parse((await k(['get', 'pods', '-l', `batch.kubernetes.io/job-name=${name}`, '-o', 'json'])).stdout).items;
      const byIndex = new Map(pods.map((p: any) => [p.metadata.labels['batch.kubernetes.io/job-completion-index'], p]));
      assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
      for (const [ix, p] of byIndex as Map<string, any>) {
        assert.equal(p.spec.hostname, `${name}-${ix}`);
        const logs = await k(['logs', p.metadata.name]);
        assert.equal(logs.stdout.trim(), `index=${ix} host=${name}-${ix}`);
      }
    });

    await t.test(`kubectl ${label}: a failing job, wait for failed`, async () => {
      const name = `fails-${v}`;
      assert.equal((await k(['apply', '-f', '-'], failingJob(name))).code, 0);
      const waited = await k(['wait', '--for=condition=failed', `job/${name}`, '--timeout=60s']);
      assert.equal(waited.code, 0, waited.stderr);
      const job = JSON.parse((await k(['get', 'job', name, '-o', 'json'])).stdout);
      const failed = job.status.conditions.find((c: any) => c.type === 'Failed');
      assert.equal(failed.reason, 'BackoffLimitExceeded');
      assert.equal(failed.message, 'Job has reached the specified backoff limit');
      assert.equal(job.status.failed, 1);
    });

    await t.test(`kubectl ${label}: suspend and resume a job; a finished job with ttlSecondsAfterFinished goes`, async () => {
      const name = `pause-${v}`;
      assert.equal((await k(['create', 'job', name, `--image=${image}`, '--', 'sh', '-c', 'sleep 3600'])).code, 0);
      await until('a running pod', async () => (await k(['get', 'pods', '-l', `job-name=${name}`, '--field-selector=status.phase=Running', '-o', 'name'])).stdout.trim());
      assert.equal((await k(['patch', 'job', name, '--type=merge', '-p', '{"spec":{"suspend":true}}'])).code, 0);
      const suspended = await k(['wait', '--for=condition=suspended', `job/${name}`, '--timeout=60s']);
      assert.equal(suspended.code, 0, suspended.stderr);
      const job = JSON.parse((await k(['get', 'job', name, '-o', 'json'])).stdout);
      const cond = job.status.conditions.find((c: any) => c.type === 'Suspended');
      assert.deepEqual([cond.status, cond.reason, cond.message], ['True', 'JobSuspended', 'Job suspended']);
      await until('no active pod', async () => JSON.parse((await k(['get', 'job', name, '-o', 'json'])).stdout).status.active === 0, 60_000);
      assert.equal((await k(['patch', 'job', name, '--type=merge', '-p', '{"spec":{"suspend":false}}'])).code, 0);
      const resumed = await k(['wait', '--for=condition=suspended=false', `job/${name}`, '--timeout=60s']);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal((await k(['delete', 'job', name, '--wait=false'])).code, 0);

      const short = `short-${v}`;
      const spec = `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"${short}"},"spec":{"ttlSecondsAfterFinished":0,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"${image}","command":["sh","-c","exit 0"]}]}}}}`;
      assert.equal((await k(['apply', '-f', '-'], spec)).code, 0);
      const gone = await k(['wait', '--for=delete', `job/${short}`, '--timeout=60s']);
      assert.equal(gone.code, 0, gone.stderr);
    });

    await t.test(`kubectl ${label}: create cronjob, and a job from it`, async () => {
      const name = `tick-${v}`;
      const created = await k(['create', 'cronjob', name, `--image=${image}`, '--schedule=*/1 * * * *', '--', 'sh', '-c', 'echo tick']);
      assert.equal(created.code, 0, created.stderr);
      const table = await k(['get', 'cronjob', name]);
      assert.match(table.stdout, new RegExp(`${name}\\s+\\*/1 \\* \\* \\* \\*\\s+<none>\\s+False\\s+0\\s+<none>`));
      const refused = await k(['create', 'cronjob', `bad-${v}`, `--image=${image}`, '--schedule=CRON_TZ=UTC * * * * *']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /cannot use TZ or CRON_TZ in schedule, use timeZone field instead/);
      const manual = await k(['create', 'job', `manual-${v}`, `--from=cronjob/${name}`]);
      assert.equal(manual.code, 0, manual.stderr);
      const waited = await k(['wait', '--for=condition=complete', `job/manual-${v}`, '--timeout=60s']);
      assert.equal(waited.code, 0, waited.stderr);
      const job = JSON.parse((await k(['get', 'job', `manual-${v}`, '-o', 'json'])).stdout);
      assert.equal(job.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual');
      assert.equal(job.metadata.ownerReferences[0].kind, 'CronJob');
    });
  }));

  // the CronJob controller starts a job at the next minute (within 70 s of its creation, whatever the second then)
  await t.test('a */1 CronJob starts its job on the minute', async () => {
    // on a slow machine more than one minute may have passed: every job is checked, and the
    // CronJob's status names one of them (read first, so the job it names already exists)
    const scheduled = async () => (JSON.parse((await k0(['get', 'jobs', '-o', 'json'])).stdout).items as any[])
      .filter(j => j.metadata.name.startsWith(`${cj}-`) && /^\d+$/.test(j.metadata.name.slice(cj.length + 1)));
    const job = await until('a scheduled job', async () => (await scheduled())[0], 75_000, 1000);
    const stamp = (j: any) => j.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'];
    const onTheMinute = (j: any) => new Date(Number(j.metadata.name.slice(cj.length + 1)) * 60_000).toISOString().replace('.000Z', 'Z');
    const cronjob = JSON.parse((await k0(['get', 'cronjob', cj, '-o', 'json'])).stdout);
    const jobs = await scheduled();
    for (const j of jobs) assert.equal(stamp(j), onTheMinute(j), j.metadata.name);
    assert.ok(jobs.some(j => stamp(j) === cronjob.status.lastScheduleTime), `${cronjob.status.lastScheduleTime} in ${jobs.map(stamp)}`);
    assert.equal((await k0(['wait', '--for=condition=complete', `job/${job.metadata.name}`, '--timeout=60s'])).code, 0);
  });
});
