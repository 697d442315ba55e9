// Restart back-off per key (a pod's container, or an image a pod pulls): the first failure is
// retried at once, later ones wait 10 s doubling to 5 minutes, measured from the failure. A key
// not failing for twice the cap starts over, so a container that crashes once a day is not
// held back for minutes.

export interface BackoffState { inBackoff: boolean; delayMs: number; remainingMs: number }

export interface RestartBackoff {
  /** whether a failure at `since` (ms) is still being waited out */
  check(key: string, since: number): BackoffState;
  /** a retry is happening now: the next failure waits longer */
  next(key: string, since: number): void;
  forget(prefix: string): void;
}

export function restartBackoff(now: () => number, initialMs = 10_000, maxMs = 300_000): RestartBackoff {
  const entries = new Map<string, { delayMs: number; lastUpdate: number }>();
  const fresh = (key: string) => {
    const e = entries.get(key);
    if (e && now() - e.lastUpdate > 2 * maxMs) { entries.delete(key); return undefined; }
    return e;
  };
  return {
    check(key, since) {
      const e = fresh(key);
      if (!e) return { inBackoff: false, delayMs: 0, remainingMs: 0 };
      const remaining = since + e.delayMs - now();
      return { inBackoff: remaining > 0, delayMs: e.delayMs, remainingMs: Math.max(0, remaining) };
    },
    next(key, since) {
      const e = fresh(key);
      if (!e) entries.set(key, { delayMs: initialMs, lastUpdate: since });
      else entries.set(key, { delayMs: Math.min(e.delayMs * 2, maxMs), lastUpdate: since });
    },
    forget(prefix) {
      for (const k of entries.keys()) if (k.startsWith(prefix)) entries.delete(k);
    },
  };
}
