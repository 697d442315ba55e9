// The Job a CronJob starts for one activation: its template's labels, annotations and spec,
// the CronJob as controller, the name <cronjob>-<minutes since the epoch> (the same activation
// always gives the same name, which keeps it from being started twice) and the
// batch.kubernetes.io/cronjob-scheduled-timestamp annotation in the CronJob's time zone.

import { zoneOffsetMs } from '../../api/time-zone.ts';
import type { BatchV1Job } from '../../schema/generated/types.ts';
import type { CronJob } from './schedule-times.ts';

export const scheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export const jobNameFor = (cj: CronJob, scheduledMs: number) => `${cj.metadata.name}-${Math.floor(scheduledMs / 60_000)}`;

/** RFC 3339 in the zone, as Go's time.Format writes it ("Z" for a zero offset) */
export function rfc3339InZone(ms: number, zone: string): string {
  const offset = zone ? zoneOffsetMs(ms, zone) : 0;
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const m = Math.abs(offset) / 60_000;
  return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export function jobFromTemplate(cj: CronJob, scheduledMs: number): BatchV1Job {
  const t = cj.spec.jobTemplate;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cj, scheduledMs),
      namespace: cj.metadata.namespace,
      labels: { ...(t.metadata?.labels ?? {}) },
      annotations: { ...(t.metadata?.annotations ?? {}), [scheduledTimestampAnnotation]: rfc3339InZone(scheduledMs, cj.spec.timeZone ?? '') },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name!, uid: cj.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: structuredClone(t.spec!),
  };
}
