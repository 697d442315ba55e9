// Job conditions as the job controller writes them: Complete, Failed and their interim forms
// SuccessCriteriaMet and FailureTarget, Suspended; each with both probe and transition times.

import type { BatchV1JobCondition } from '../../schema/generated/types.ts';
import { rfc3339 } from '../../api/time.ts';

export type Condition = BatchV1JobCondition;

export function newCondition(type: string, status: string, reason: string, message: string, now: number): Condition {
  const t = rfc3339(new Date(now));
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

export const findCondition = (list: Condition[] | undefined, type: string) => (list ?? []).find(c => c.type === type);

export const conditionTrue = (list: Condition[] | undefined, type: string) => findCondition(list, type)?.status === 'True';

/** a job with Complete or Failed true is done for good */
export const isFinished = (list: Condition[] | undefined) => conditionTrue(list, 'Complete') || conditionTrue(list, 'Failed');

/**
 * The list with a condition of this type set to the values given; a False condition is not
 * added where none was. Returns whether anything changed.
 */
export function ensureCondition(list: Condition[], type: string, status: string, reason: string, message: string, now: number): { list: Condition[]; changed: boolean } {
  const i = list.findIndex(c => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status === status && c.reason === reason && c.message === message) return { list, changed: false };
    const next = [...list];
    next[i] = newCondition(type, status, reason, message, now);
    return { list: next, changed: true };
  }
  if (status === 'False') return { list, changed: false };
  return { list: [...list, newCondition(type, status, reason, message, now)], changed: true };
}
