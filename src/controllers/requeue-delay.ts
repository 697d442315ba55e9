// How far ahead a controller schedules its next look. Node's timers hold at most 2^31-1 ms
// (24.8 days) and fire at once beyond that, so a far deadline (a yearly CronJob, a month-long
// ttlSecondsAfterFinished) is looked at again after a day, which then waits the rest.

const dayMs = 24 * 3600_000;

export const requeueDelay = (ms: number): number => Math.min(Math.max(0, ms), dayMs);
