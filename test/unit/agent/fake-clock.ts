// A clock tests move by hand: timers fire in time order as it advances.

import type { Clock } from '../../../src/agent/clock.ts';

export interface FakeClock extends Clock {
  advance(ms: number): Promise<void>;
  /** delays asked for, in order */
  delays: number[];
}

export function fakeClock(start = Date.parse('2026-11-22T10:00:00Z')): FakeClock {
  let now = start;
  let seq = 0;
  const timers: Array<{ at: number; seq: number; fn: () => void; cancelled: boolean }> = [];
  const delays: number[] = [];
  const settle = () => new Promise<void>(r => setImmediate(r));
  return {
    delays,
    now: () => now,
    after(ms, fn) {
      delays.push(ms);
      const t = { at: now + ms, seq: seq++, fn, cancelled: false };
      timers.push(t);
      return { cancel: () => { t.cancelled = true; } };
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await settle();
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers.find(t => !t.cancelled && t.at <= end);
        if (!next) break;
        timers.splice(timers.indexOf(next), 1);
        now = next.at;
        next.fn();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}
