// Time as the agent's loops see it (the clock itself is shared, in src/api/clock.ts) and the
// time formats and back-off they use.

export { realClock, type Clock } from '../api/clock.ts';

/** an RFC 3339 time with microseconds, as Kubernetes writes MicroTime (lease renewals) */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** an RFC 3339 time to the second, as Kubernetes writes Time (conditions) */
export function secondsTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** exponential backoff: start, doubling, at most cap; reset after a success */
export function backoff(startMs: number, capMs: number): { next(): number; reset(): void } {
  let current = startMs;
  return {
    next() { const d = current; current = Math.min(current * 2, capMs); return d; },
    reset() { current = startMs; },
  };
}
