// Jobs and CronJobs: Kubernetes' batch defaults, the selector generated from the job's uid, and
// batch validation. Status goes through the status subresource; spec changes bump generation.

import { strategyWith } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { BatchV1CronJobSpec, BatchV1JobSpec } from '../../schema/generated/types.ts';
import { defaultPodTemplate } from '../defaults/pod-spec.ts';
import { generateJobSelector, validateJob, validateJobUpdate } from '../validation/job.ts';
import { validateCronJob } from '../validation/cronjob.ts';

type Job = KubeObject & { spec?: BatchV1JobSpec };
type CronJob = KubeObject & { spec?: BatchV1CronJobSpec };

/** SetDefaults_Job: a job with neither count runs one pod once; parallel jobs without completions are work queues */
function defaultJob(job: Job): void {
  const s = (job.spec ??= {} as BatchV1JobSpec);
  if (s.completions === undefined && s.parallelism === undefined) { s.completions = 1; s.parallelism = 1; }
  s.parallelism ??= 1;
  s.backoffLimit ??= s.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
  s.completionMode ??= 'NonIndexed';
  s.suspend ??= false;
  for (const rule of s.podFailurePolicy?.rules ?? []) for (const p of rule.onPodConditions ?? []) p.status ||= 'True';
  s.podReplacementPolicy ??= s.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  defaultPodTemplate(s.template);
}

function defaultCronJob(cj: CronJob): void {
  const s = (cj.spec ??= {} as BatchV1CronJobSpec);
  s.concurrencyPolicy ??= 'Allow';
  s.suspend ??= false;
  s.successfulJobsHistoryLimit ??= 3;
  s.failedJobsHistoryLimit ??= 1;
  // the job template's pod spec is defaulted; its job fields are the Job's to default when created
  defaultPodTemplate(s.jobTemplate?.spec?.template);
}

export const jobStrategy = strategyWith<Job>({
  tracksGeneration: true,
  prepareForCreate(obj) { defaultJob(obj); obj.status = {}; },
  prepareForUpdate(obj) { defaultJob(obj); },
  defaults: defaultJob,
  // the selector names the uid, known only now (Kubernetes generates it in Validate too)
  validateCreate(obj) { generateJobSelector(obj); return validateJob(obj); },
  validateUpdate: (obj, old) => validateJobUpdate(obj, old),
});

export const cronJobStrategy = strategyWith<CronJob>({
  tracksGeneration: true,
  prepareForCreate(obj) { defaultCronJob(obj); obj.status = {}; },
  prepareForUpdate(obj) { defaultCronJob(obj); },
  defaults: defaultCronJob,
  validateCreate: obj => validateCronJob(obj),
  validateUpdate: (obj, old) => validateCronJob(obj, old),
});
