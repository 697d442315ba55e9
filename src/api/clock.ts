// Time as long-running loops see it, injectable so tests can run them on a fake clock (the
// agent's heartbeats and back-off, the simulated runtime's containers).

export interface Clock {
  now(): number;
  /** runs fn after ms; the handle cancels it */
  after(ms: number, fn: () => void): { cancel(): void };
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    // a pending timer must not keep a process (or a test) alive once its owner has stopped
    const t = setTimeout(fn, ms);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};
