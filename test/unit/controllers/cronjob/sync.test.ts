import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BatchV1Job } from '../../../../src/schema/generated/types.ts';
import type { CronJob } from '../../../../src/controllers/cronjob/schedule-times.ts';
import { syncCronJob, type CronJobEffects, type Job } from '../../../../src/controllers/cronjob/sync.ts';
import { rfc3339InZone } from '../../../../src/controllers/cronjob/job-from-template.ts';

/** a CronJob, its jobs in an in-memory API, and a clock the test moves */
function cronHarness(spec: Partial<CronJob['spec']>, created = '2026-01-01T00:00:30Z') {
  let seq = 0;
  const h = {
    now: Date.parse(created),
    cj: {
      apiVersion: 'batch/v1', kind: 'CronJob',
      metadata: { name: 'hello', namespace: 'ns', uid: 'cj-uid', creationTimestamp: created },
      spec: { schedule: '*/1 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { metadata: { labels: { app: 'hello' } }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } } }, ...spec },
      status: {},
    } as CronJob,
    jobs: [] as Job[],
    events: [] as string[],
    requeue: undefined as number | undefined,
    async sync() {
      const fx: CronJobEffects = {
        now: () => h.now,
        getCronJob: async () => structuredClone(h.cj),
        getJob: async name => h.jobs.find(j => j.metadata.name === name),
        async createJob(job: BatchV1Job) {
          if (h.jobs.some(j => j.metadata.name === job.metadata?.name)) return 'exists';
          const j = structuredClone(job) as Job;
          j.metadata.uid = `job-uid-${++seq}`;
          j.metadata.resourceVersion = String(seq);
          h.jobs.push(j);
          return j;
        },
        async deleteJob(job) { h.jobs = h.jobs.filter(j => j.metadata.uid !== job.metadata.uid); },
        event: (type, reason, message) => { h.events.push(`${type} ${reason} ${message}`); },
      };
      const r = await syncCronJob(h.cj, h.jobs.map(j => structuredClone(j)), fx);
      if (r.updateStatus) h.cj = r.cronJob;
      h.requeue = r.requeueAfterMs;
    },
    finish(job: Job, type: 'Complete' | 'Failed', at: string) {
      const j = h.jobs.find(x => x.metadata.uid === job.metadata.uid)!;
      j.status = { startTime: j.status?.startTime ?? at, conditions: [{ type, status: 'True', lastTransitionTime: at }], ...(type === 'Complete' ? { completionTime: at } : {}) };
    },
  };
  return h;
}

test('*/1: a job each minute, named for its minute, annotated with its time, and the next sync just after the next minute', async () => {
  const h = cronHarness({});
  await h.sync();
  assert.equal(h.jobs.length, 0, 'nothing is due before the first minute');
  assert.equal(h.requeue, 30_100);
  h.now = Date.parse('2026-01-01T00:01:00.100Z');
  await h.sync();
  assert.equal(h.jobs.length, 1);
  const j = h.jobs[0]!;
  assert.equal(j.metadata.name, `hello-${Date.parse('2026-01-01T00:01:00Z') / 60_000}`);
  assert.equal(j.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-01-01T00:01:00Z');
  assert.deepEqual(j.metadata.labels, { app: 'hello' });
  assert.deepEqual(j.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }]);
  assert.equal(h.cj.status?.lastScheduleTime, '2026-01-01T00:01:00Z');
  assert.deepEqual(h.cj.status?.active?.map(r => r.name), [j.metadata.name]);
  assert.deepEqual(h.events, [`Normal SuccessfulCreate Created job ${j.metadata.name}`]);
  assert.equal(h.requeue, 60_000);
  // the same minute again starts nothing
  await h.sync();
  assert.equal(h.jobs.length, 1);
});

test('a finished job leaves status.active; the latest success is lastSuccessfulTime; history limits delete the oldest', async () => {
  const h = cronHarness({ successfulJobsHistoryLimit: 1 });
  for (let m = 1; m <= 3; m++) {
    h.now = Date.parse(`2026-01-01T00:0${m}:00.100Z`);
    await h.sync();
    const last = h.jobs.at(-1)!;
    h.finish(last, 'Complete', `2026-01-01T00:0${m}:30Z`);
    await h.sync();
    await h.sync();
  }
  assert.deepEqual(h.jobs.map(j => j.metadata.name), [`hello-${Date.parse('2026-01-01T00:03:00Z') / 60_000}`]);
  assert.equal(h.cj.status?.lastSuccessfulTime, '2026-01-01T00:03:30Z');
  assert.deepEqual(h.cj.status?.active, []);
  assert.ok(h.events.some(e => e.startsWith('Normal SawCompletedJob Saw completed job: hello-') && e.endsWith(', status: Complete')));
  assert.ok(h.events.some(e => e.startsWith('Normal SuccessfulDelete Deleted job hello-')));
});

test('Forbid skips while a job runs; Replace deletes it and starts the new one', async () => {
  const forbid = cronHarness({ concurrencyPolicy: 'Forbid' });
  forbid.now = Date.parse('2026-01-01T00:01:00.100Z');
  await forbid.sync();
  forbid.now = Date.parse('2026-01-01T00:02:00.100Z');
  await forbid.sync();
  assert.equal(forbid.jobs.length, 1);
  assert.equal(forbid.events.at(-1), 'Normal JobAlreadyActive Not starting job because prior execution is running and concurrency policy is Forbid');

  const replace = cronHarness({ concurrencyPolicy: 'Replace' });
  replace.now = Date.parse('2026-01-01T00:01:00.100Z');
  await replace.sync();
  const first = replace.jobs[0]!.metadata.name;
  replace.now = Date.parse('2026-01-01T00:02:00.100Z');
  await replace.sync();
  assert.equal(replace.jobs.length, 1);
  assert.notEqual(replace.jobs[0]!.metadata.name, first);
  assert.ok(replace.events.includes(`Normal SuccessfulDelete Deleted job ${first}`));
  assert.deepEqual(replace.cj.status?.active?.map(r => r.name), [replace.jobs[0]!.metadata.name]);
});

test('startingDeadlineSeconds: a start missed by more is not made up; suspended CronJobs start nothing', async () => {
  const h = cronHarness({ schedule: '0 * * * *', startingDeadlineSeconds: 10 });
  h.now = Date.parse('2026-01-01T01:00:30Z');
  await h.sync();
  assert.equal(h.jobs.length, 0);
  // activations older than the deadline are not even considered, as Kubernetes reckons them
  assert.deepEqual(h.events, []);
  assert.equal(h.requeue, Date.parse('2026-01-01T02:00:00.100Z') - h.now);
  h.now = Date.parse('2026-01-01T02:00:05Z');
  await h.sync();
  assert.equal(h.jobs.length, 1, 'within the deadline it starts');

  const s = cronHarness({ suspend: true });
  s.now = Date.parse('2026-01-01T00:05:00Z');
  await s.sync();
  assert.equal(s.jobs.length, 0);
});

test('many missed minutes start only the latest, with a TooManyMissedTimes warning past 100', async () => {
  const h = cronHarness({});
  h.now = Date.parse('2026-01-01T03:00:10Z');
  await h.sync();
  assert.equal(h.jobs.length, 1);
  assert.equal(h.cj.status?.lastScheduleTime, '2026-01-01T03:00:00Z');
  assert.equal(h.events[0], 'Warning TooManyMissedTimes too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
});

test('timeZone: the schedule reads the zone\'s wall clock and the annotation carries its offset', async () => {
  const h = cronHarness({ schedule: '0 9 * * *', timeZone: 'Europe/Paris' }, '2026-06-01T00:00:00Z');
  h.now = Date.parse('2026-06-01T07:00:01Z');
  await h.sync();
  assert.equal(h.jobs.length, 1);
  assert.equal(h.jobs[0]!.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-06-01T09:00:00+02:00');
  assert.equal(rfc3339InZone(Date.parse('2026-01-15T14:00:00Z'), 'America/New_York'), '2026-01-15T09:00:00-05:00');
  const bad = cronHarness({ timeZone: 'Mars/Olympus' });
  bad.now += 120_000;
  await bad.sync();
  assert.deepEqual(bad.events, ['Warning UnknownTimeZone invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus']);
});

test('a job that vanished leaves status.active with MissingJob', async () => {
  const h = cronHarness({});
  h.now = Date.parse('2026-01-01T00:01:00.100Z');
  await h.sync();
  h.jobs = [];
  h.now = Date.parse('2026-01-01T00:01:20Z');
  await h.sync();
  assert.deepEqual(h.cj.status?.active, []);
  assert.ok(h.events.at(-1)!.startsWith('Normal MissingJob Active job went missing: hello-'));
});
