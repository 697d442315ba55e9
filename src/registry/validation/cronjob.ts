// CronJobs, checked as Kubernetes' batch validation checks them: a schedule the cron parser
// reads (without TZ=/CRON_TZ=, which spec.timeZone replaces), a time zone Go would load, the
// concurrency policy, non-negative limits, a name short enough for its jobs' names, and a job
// template whose selector the API server will generate.

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { cronScheduleError } from '../../api/cron-schedule.ts';
import { timeZoneError } from '../../api/time-zone.ts';
import { jobSpecErrors } from './job.ts';

type Obj = Record<string, any>;

/** jobs are named <cronjob>-<minutes>, and the minutes take up to 11 characters */
const maxCronJobNameLength = 52;

function timeZoneErrors(tz: unknown): FieldError[] {
  if (tz === undefined || tz === null) return [];
  const field = 'spec.timeZone';
  if (tz === '') return [{ type: 'FieldValueInvalid', field, value: tz, detail: 'timeZone must be nil or non-empty string' }];
  const name = String(tz);
  for (const part of name.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part)) {
      return [{ type: 'FieldValueInvalid', field, value: name, detail: `unknown time zone ${name}` }];
    }
  }
  const errs: FieldError[] = [];
  if (name.toLowerCase() === 'local') errs.push({ type: 'FieldValueInvalid', field, value: name, detail: 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones' });
  const err = timeZoneError(name);
  if (err) errs.push({ type: 'FieldValueInvalid', field, value: name, detail: err });
  return errs;
}

export function validateCronJob(cj: KubeObject, old?: KubeObject): FieldError[] {
  const s: Obj = isObject(cj.spec) ? cj.spec : {};
  const errs: FieldError[] = [];
  const name = String(cj.metadata.name ?? '');
  if (name.length > maxCronJobNameLength) errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail: `must be no more than ${maxCronJobNameLength} characters` });
  if (typeof s.schedule !== 'string' || s.schedule === '') {
    errs.push({ type: 'FieldValueRequired', field: 'spec.schedule' });
  } else {
    const parseErr = cronScheduleError(s.schedule);
    if (parseErr) errs.push({ type: 'FieldValueInvalid', field: 'spec.schedule', value: s.schedule, detail: parseErr });
    // an old CronJob keeping its TZ= schedule may still be updated, as Kubernetes allows
    const keptTz = old && (old.spec as Obj | undefined)?.schedule === s.schedule && s.schedule.includes('TZ');
    if (keptTz && s.timeZone !== undefined) errs.push({ type: 'FieldValueInvalid', field: 'spec.schedule', value: s.schedule, detail: 'cannot use both timeZone field and TZ or CRON_TZ in schedule' });
    else if (!keptTz && s.schedule.includes('TZ')) errs.push({ type: 'FieldValueInvalid', field: 'spec.schedule', value: s.schedule, detail: 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead' });
  }
  errs.push(...timeZoneErrors(s.timeZone));
  if (s.concurrencyPolicy === undefined || s.concurrencyPolicy === '') errs.push({ type: 'FieldValueRequired', field: 'spec.concurrencyPolicy' });
  else if (!['Allow', 'Forbid', 'Replace'].includes(s.concurrencyPolicy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.concurrencyPolicy', value: s.concurrencyPolicy, detail: 'supported values: "Allow", "Forbid", "Replace"' });
  }
  for (const f of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    if (typeof s[f] === 'number' && s[f] < 0) errs.push({ type: 'FieldValueInvalid', field: `spec.${f}`, value: s[f], detail: 'must be greater than or equal to 0' });
  }
  const jt: Obj = isObject(s.jobTemplate) ? s.jobTemplate : {};
  const js: Obj = isObject(jt.spec) ? jt.spec : {};
  errs.push(...jobSpecErrors(js, 'spec.jobTemplate.spec'));
  if (js.selector !== undefined) errs.push({ type: 'FieldValueInvalid', field: 'spec.jobTemplate.spec.selector', value: js.selector, detail: '`selector` will be auto-generated' });
  if (js.manualSelector === true) errs.push({ type: 'FieldValueNotSupported', field: 'spec.jobTemplate.spec.manualSelector', value: true, detail: 'supported values: "nil", "false"' });
  return errs;
}
