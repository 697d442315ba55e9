// Time as the agent's loops see it (the clock itself is shared, in src/api/clock.ts) and the
// time formats and back-off they use.

export { realClock, type Clock } from '../api/clock.ts';

/** exponential backoff: start, doubling, at most cap; reset after a success */
export function backoff(startMs: number, capMs: number): { next(): number; reset(): void } {
  let current = startMs;
  return {
    next() { const d = current; current = Math.min(current * 2, capMs); return d; },
    reset() { current = startMs; },
  };
}
