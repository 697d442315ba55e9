// The pause before a Job replaces failed pods, as the job controller waits: 10 s after the first
// failure since the last success, doubling per further failure, at most 10 minutes; per index
// (from the failed pod's failure-count annotation) with backoffLimitPerIndex.

import { finishedTime, indexFailureCountKey, indexIgnoredFailureCountKey, type Pod } from './pods.ts';

export const podFailureBackoffMs = 10_000;
export const maxPodFailureBackoffMs = 10 * 60_000;

export interface BackoffRecord { failuresAfterLastSuccess: number; lastFailureTime?: number }

/** the record after this sync's newly finished pods (a success clears earlier failures) */
export function nextBackoffRecord(prev: BackoffRecord | undefined, newSucceeded: Pod[], newFailed: Pod[]): BackoffRecord {
  const rec: BackoffRecord = { ...(prev ?? { failuresAfterLastSuccess: 0 }) };
  const failedTimes = newFailed.map(finishedTime).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return rec;
    return { failuresAfterLastSuccess: rec.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
  }
  const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
  const after = failedTimes.filter(t => t > lastSuccess);
  return after.length ? { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1] } : { failuresAfterLastSuccess: 0 };
}

export function remainingBackoffMs(failures: number, lastFailureTime: number | undefined, now: number): number {
  if (failures === 0 || lastFailureTime === undefined) return 0;
  let delay = podFailureBackoffMs;
  for (let i = 1; i < failures; i++) {
    delay *= 2;
    if (delay >= maxPodFailureBackoffMs) { delay = maxPodFailureBackoffMs; break; }
  }
  const elapsed = now - lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}

function countAnnotation(p: Pod, key: string): number {
  const v = p.metadata.annotations?.[key];
  const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : 0;
  return n <= 2147483647 ? n : 0;
}

export const indexFailureCount = (p: Pod) => countAnnotation(p, indexFailureCountKey);
export const indexIgnoredFailureCount = (p: Pod) => countAnnotation(p, indexIgnoredFailureCountKey);

/** how long an index waits before its replacement pod, from the last pod that failed in it */
export function remainingIndexBackoffMs(lastFailed: Pod | undefined, now: number): number {
  if (!lastFailed) return 0;
  return remainingBackoffMs(indexFailureCount(lastFailed) + indexIgnoredFailureCount(lastFailed) + 1, finishedTime(lastFailed), now);
}
