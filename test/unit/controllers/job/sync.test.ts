import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobHarness } from './harness.ts';

const types = (h: { job: { status?: { conditions?: Array<{ type: string; status: string; reason?: string }> } } }) =>
  (h.job.status?.conditions ?? []).map(c => `${c.type}=${c.status}/${c.reason}`);

test('a NonIndexed job runs its completions one pod at a time and completes', async () => {
  const h = jobHarness({ completions: 2, parallelism: 1 });
  await h.sync();
  assert.equal(h.pods.length, 1);
  const p = h.pods[0]!;
  assert.equal(p.metadata.generateName, 'pi-');
  assert.deepEqual(p.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
  assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: 'job-uid', controller: true, blockOwnerDeletion: true }]);
  assert.equal(h.job.status?.active, 1);
  assert.ok(h.job.status?.startTime);

  h.finish(p.metadata.name!, 'Succeeded');
  await h.sync();
  // counted once its finalizer is gone, and the next pod started
  assert.deepEqual(h.pod(p.metadata.name!).metadata.finalizers, []);
  assert.equal(h.job.status?.succeeded, 1);
  assert.deepEqual(h.job.status?.uncountedTerminatedPods, {}, 'empty lists are omitted, as Go writes them');
  assert.equal(h.pods.filter(x => !x.status?.phase || x.status.phase === 'Pending').length, 1);

  h.finish(h.pods[1]!.metadata.name!, 'Succeeded');
  h.now += 5000;
  await h.sync();
  assert.deepEqual(types(h), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
  assert.equal(h.job.status?.succeeded, 2);
  assert.equal(h.job.status?.active, 0);
  assert.equal(h.job.status?.completionTime, '2026-01-01T00:00:05Z');
  assert.equal(h.job.status?.conditions?.[1]?.message, 'Reached expected number of succeeded pods');
  assert.deepEqual(h.events, ['Normal Completed Job completed']);
  // a finished job is left alone
  const writes = h.statusWrites;
  await h.sync();
  assert.equal(h.statusWrites, writes);
});

test('failures wait out the back-off, then backoffLimit fails the job once no pod is terminating', async () => {
  const h = jobHarness({ backoffLimit: 1, parallelism: 1, completions: 1 });
  await h.sync();
  h.finish(h.pods[0]!.metadata.name!, 'Failed');
  await h.sync();
  assert.equal(h.job.status?.failed, 1);
  assert.equal(h.pods.length, 1, 'no replacement before the back-off');
  assert.equal(h.requeues.at(-1), 10_000);
  h.now += 10_000;
  await h.sync();
  assert.equal(h.pods.length, 2);
  h.finish(h.pods[1]!.metadata.name!, 'Failed');
  h.now += 1000;
  await h.sync();
  assert.equal(h.job.status?.failed, 2);
  assert.deepEqual(types(h), ['FailureTarget=True/BackoffLimitExceeded', 'Failed=True/BackoffLimitExceeded']);
  assert.equal(h.job.status?.conditions?.[1]?.message, 'Job has reached the specified backoff limit');
  assert.deepEqual(h.events, ['Warning BackoffLimitExceeded Job has reached the specified backoff limit']);
  assert.equal(h.job.status?.completionTime, undefined);
});

test('activeDeadlineSeconds: active pods are deleted, and Failed waits for them to terminate', async () => {
  const h = jobHarness({ activeDeadlineSeconds: 30, parallelism: 2, completions: 4 });
  await h.sync();
  assert.equal(h.pods.length, 2);
  assert.equal(h.requeues.at(-1), 30_000);
  h.now += 30_000;
  await h.sync();
  assert.deepEqual(types(h), ['FailureTarget=True/DeadlineExceeded']);
  assert.ok(h.pods.every(p => p.metadata.deletionTimestamp));
  assert.equal(h.job.status?.terminating, 2);
  h.reap();
  await h.sync();
  assert.deepEqual(types(h), ['FailureTarget=True/DeadlineExceeded', 'Failed=True/DeadlineExceeded']);
  assert.equal(h.job.status?.failed, 2);
  assert.equal(h.job.status?.terminating, 0);
  assert.equal(h.job.status?.conditions?.[1]?.message, 'Job was active longer than specified deadline');
});

test('Indexed jobs: one pod per index with its annotation, label, env, hostname and name prefix', async () => {
  const h = jobHarness({ completionMode: 'Indexed', completions: 3, parallelism: 3 }, { name: 'idx' });
  await h.sync();
  assert.deepEqual(h.pods.map(p => p.metadata.generateName), ['idx-0-', 'idx-1-', 'idx-2-']);
  const p1 = h.pods[1]!;
  assert.equal(p1.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], '1');
  assert.equal(p1.metadata.labels?.['batch.kubernetes.io/job-completion-index'], '1');
  assert.equal(p1.spec?.hostname, 'idx-1');
  assert.deepEqual(p1.spec?.containers[0]?.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } }]);
  h.finish(p1.metadata.name!, 'Succeeded');
  h.finish(h.pods[2]!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.equal(h.job.status?.completedIndexes, '1,2');
  assert.equal(h.job.status?.succeeded, 2);
  // a failed index is recreated at the same index
  h.finish(h.pods[0]!.metadata.name!, 'Failed');
  await h.sync();
  h.now += 10_000;
  await h.sync();
  assert.equal(h.pods.at(-1)!.metadata.generateName, 'idx-0-');
  h.finish(h.pods.at(-1)!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.equal(h.job.status?.completedIndexes, '0-2');
  assert.deepEqual(types(h), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
});

test('podFailurePolicy: FailJob on an exit code fails the job with Kubernetes\' message; Ignore does not count', async () => {
  const h = jobHarness({
    completions: 2, parallelism: 2, podReplacementPolicy: 'Failed',
    podFailurePolicy: { rules: [
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      { action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } },
    ] },
  });
  await h.sync();
  const [a, b] = h.pods;
  h.finish(a!.metadata.name!, 'Failed');
  a!.status!.conditions!.push({ type: 'DisruptionTarget', status: 'True' });
  await h.sync();
  assert.equal(h.job.status?.failed ?? 0, 0, 'an ignored failure is not counted');
  // replaced after the back-off all failures wait out, as Kubernetes does
  h.now += 10_000;
  await h.sync();
  assert.equal(h.pods.length, 3);
  h.finish(b!.metadata.name!, 'Failed', 42);
  await h.sync();
  const failTarget = h.job.status?.conditions?.find(c => c.type === 'FailureTarget');
  assert.equal(failTarget?.reason, 'PodFailurePolicy');
  assert.equal(failTarget?.message, `Container c for pod ns/${b!.metadata.name} failed with exit code 42 matching FailJob rule at index 1`);
});

test('suspend: no pods, Suspended condition and events; resuming restarts the clock', async () => {
  const h = jobHarness({ suspend: true });
  await h.sync();
  assert.equal(h.pods.length, 0);
  assert.equal(h.job.status?.startTime, undefined);
  assert.deepEqual(types(h), ['Suspended=True/JobSuspended']);
  assert.deepEqual(h.events, ['Normal Suspended Job suspended']);
  h.job.spec.suspend = false;
  h.now += 60_000;
  await h.sync();
  assert.equal(h.pods.length, 1);
  assert.deepEqual(types(h), ['Suspended=False/JobResumed']);
  assert.equal(h.job.status?.startTime, '2026-01-01T00:01:00Z');
  // suspending again removes the running pod, finalizer first
  h.job.spec.suspend = true;
  await h.sync();
  assert.ok(h.pods[0]!.metadata.deletionTimestamp);
  assert.deepEqual(h.pods[0]!.metadata.finalizers, []);
  assert.equal(h.job.status?.active, 0);
});

test('backoffLimitPerIndex: an index that fails too often is failed on its own; maxFailedIndexes fails the job', async () => {
  const h = jobHarness({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 0, maxFailedIndexes: 1, backoffLimit: 2147483647 }, { name: 'pi' });
  await h.sync();
  assert.equal(h.pods[0]!.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count'], '0');
  h.finish(h.pods[0]!.metadata.name!, 'Failed');
  await h.sync();
  assert.equal(h.job.status?.failedIndexes, '0');
  assert.equal(h.pods.filter(p => p.metadata.generateName === 'pi-0-').length, 1, 'a failed index is not retried');
  h.finish(h.pods[1]!.metadata.name!, 'Failed');
  await h.sync();
  assert.equal(h.job.status?.failedIndexes, '0,1');
  assert.equal(h.job.status?.conditions?.[0]?.reason, 'MaxFailedIndexesExceeded');
});

test('successPolicy: enough succeeded indexes complete the job and the rest are deleted', async () => {
  const h = jobHarness({ completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 1 }] } });
  await h.sync();
  h.finish(h.pods[0]!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.deepEqual(types(h), ['SuccessCriteriaMet=True/SuccessPolicy']);
  assert.equal(h.job.status?.conditions?.[0]?.message, 'Matched rules at index 0');
  assert.ok(h.pods.slice(1).every(p => p.metadata.deletionTimestamp));
  h.reap();
  await h.sync();
  assert.deepEqual(types(h), ['SuccessCriteriaMet=True/SuccessPolicy', 'Complete=True/SuccessPolicy']);
});

test('work queue jobs (parallelism without completions) finish when one pod succeeds and the rest end', async () => {
  const h = jobHarness({ completions: undefined, parallelism: 2 });
  await h.sync();
  assert.equal(h.pods.length, 2);
  h.finish(h.pods[0]!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.equal(h.pods.length, 2, 'nothing new starts after a success');
  assert.equal(h.job.status?.active, 1);
  h.finish(h.pods[1]!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.deepEqual(types(h), ['SuccessCriteriaMet=True/CompletionsReached', 'Complete=True/CompletionsReached']);
});

test('podReplacementPolicy: TerminatingOrFailed replaces a deleted pod at once; Failed waits until it has failed', async () => {
  for (const policy of ['TerminatingOrFailed', 'Failed'] as const) {
    const h = jobHarness({ podReplacementPolicy: policy });
    await h.sync();
    const p = h.pods[0]!;
    p.metadata.deletionTimestamp = new Date(h.now).toISOString();
    p.metadata.deletionGracePeriodSeconds = 30;
    h.now += 30_000;
    await h.sync();
    assert.equal(h.job.status?.terminating, 1, policy);
    if (policy === 'TerminatingOrFailed') {
      // a deleted pod counts as failed, and is replaced once the back-off has passed
      assert.equal(h.job.status?.failed, 1);
      h.now += 10_000;
      await h.sync();
      assert.equal(h.pods.length, 2);
    } else {
      h.now += 60_000;
      await h.sync();
      assert.equal(h.pods.length, 1, 'no replacement while the pod terminates');
      h.reap();
      await h.sync();
      h.now += 10_000;
      await h.sync();
      assert.equal(h.pods.filter(x => !x.metadata.deletionTimestamp).length, 1, 'replaced once it has failed');
      assert.equal(h.job.status?.failed, 1);
    }
  }
});

test('restartPolicy OnFailure: container restarts reaching backoffLimit fail the job', async () => {
  const h = jobHarness({ backoffLimit: 2, template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } });
  await h.sync();
  const p = h.pods[0]!;
  p.status = { phase: 'Running', containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] };
  await h.sync();
  assert.equal(h.job.status?.conditions?.[0]?.reason, 'BackoffLimitExceeded');
  assert.ok(p.metadata.deletionTimestamp || h.pods[0]!.metadata.deletionTimestamp, 'the running pod is deleted');
});

test('podFailurePolicy FailIndex fails just that index', async () => {
  const h = jobHarness({
    completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 3, podReplacementPolicy: 'Failed',
    podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [7] } }] },
  });
  await h.sync();
  h.finish(h.pods[1]!.metadata.name!, 'Failed', 7);
  await h.sync();
  assert.equal(h.job.status?.failedIndexes, '1');
  h.finish(h.pods[0]!.metadata.name!, 'Succeeded');
  await h.sync();
  assert.equal(h.job.status?.completedIndexes, '0');
  const failed = h.job.status?.conditions?.find(c => c.type === 'Failed');
  assert.equal(failed?.reason, 'FailedIndexes');
  assert.equal(failed?.message, 'Job has failed indexes');
});
