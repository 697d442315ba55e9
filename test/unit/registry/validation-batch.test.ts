import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../src/api/status.ts';
import type { KubeObject } from '../../../src/api/object.ts';
import { generateJobSelector, validateJob, validateJobUpdate } from '../../../src/registry/validation/job.ts';
import { validateCronJob } from '../../../src/registry/validation/cronjob.ts';

const msgs = (errs: Parameters<typeof fieldErrorMessage>[0][]) => errs.map(fieldErrorMessage);

function job(spec: Record<string, unknown> = {}, restartPolicy = 'Never'): KubeObject {
  return { metadata: { name: 'pi', uid: 'u-1' }, spec: { parallelism: 1, completions: 1, template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy } }, ...spec } };
}

test('jobs: the generated selector picks the uid; the pods and the job carry uid and name labels', () => {
  const j = job();
  generateJobSelector(j);
  assert.deepEqual((j.spec as any).selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } });
  assert.deepEqual((j.spec as any).template.metadata.labels, {
    'batch.kubernetes.io/controller-uid': 'u-1', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'u-1', 'job-name': 'pi',
  });
  assert.deepEqual(j.metadata.labels, (j.spec as any).template.metadata.labels);
  assert.deepEqual(validateJob(j), []);
  // a manual selector is the user's, and must select the template
  const manual = job({ manualSelector: true, selector: { matchLabels: { app: 'x' } } });
  generateJobSelector(manual);
  assert.deepEqual(msgs(validateJob(manual)), ['spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`']);
  // a conflicting label the user wrote is refused, as Kubernetes words it
  const clash = job();
  (clash.spec as any).template.metadata = { labels: { 'job-name': 'other' } };
  generateJobSelector(clash);
  assert.ok(msgs(validateJob(clash)).includes("spec.template.metadata.labels[job-name]: Invalid value: {\"job-name\":\"other\",\"controller-uid\":\"u-1\",\"batch.kubernetes.io/job-name\":\"pi\",\"batch.kubernetes.io/controller-uid\":\"u-1\"}: must be 'pi'"));
});

test('jobs: restart policies, Indexed-only fields, counts, and what may not change', () => {
  const always = job({}, 'Always');
  generateJobSelector(always);
  assert.deepEqual(msgs(validateJob(always)), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  const j = job({ backoffLimitPerIndex: 1, completions: -1 });
  generateJobSelector(j);
  assert.deepEqual(msgs(validateJob(j)), [
    'spec.completions: Invalid value: -1: must be greater than or equal to 0',
    'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
  ]);
  const indexed = job({ completionMode: 'Indexed', completions: undefined });
  generateJobSelector(indexed);
  assert.deepEqual(msgs(validateJob(indexed)), ['spec.completions: Required value: when completion mode is Indexed']);
  const pfp = job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [0] } }] } }, 'OnFailure');
  generateJobSelector(pfp);
  assert.deepEqual(msgs(validateJob(pfp)), [
    'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
    'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
  ]);
  const old = job();
  generateJobSelector(old);
  const changed = structuredClone(old);
  (changed.spec as any).completions = 3;
  (changed.spec as any).template.spec.containers[0].image = 'other';
  assert.deepEqual(msgs(validateJobUpdate(changed, old)).map(m => m.replace(/: \{.*\}: /, ': {…}: ')), [
    'spec.completions: Invalid value: 3: field is immutable',
    'spec.template: Invalid value: {…}: field is immutable',
  ]);
});

function cronJob(spec: Record<string, unknown>, name = 'hello'): KubeObject {
  return { metadata: { name }, spec: { concurrencyPolicy: 'Allow', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } } }, ...spec } };
}

test('cronjobs: schedules as the cron parser reads them, time zones Go loads, TZ= refused', () => {
  assert.deepEqual(validateCronJob(cronJob({ schedule: '*/1 * * * *' })), []);
  assert.deepEqual(validateCronJob(cronJob({ schedule: '@hourly', timeZone: 'Europe/Paris' })), []);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '61 * * * *' }))), ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '* * * *' }))), ['spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: 'CRON_TZ=UTC * * * * *' }))), ['spec.schedule: Invalid value: "CRON_TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '@daily', timeZone: 'Europe/Pariss' }))), ['spec.timeZone: Invalid value: "Europe/Pariss": unknown time zone Europe/Pariss']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '@daily', timeZone: '+01:00' }))), ['spec.timeZone: Invalid value: "+01:00": unknown time zone +01:00']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '@daily', concurrencyPolicy: 'Sometimes' }))), ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']);
  assert.deepEqual(msgs(validateCronJob(cronJob({ schedule: '@daily' }, 'x'.repeat(53)))), [`metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`]);
});
