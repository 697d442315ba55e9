// Restart back-off per key (a pod's container, or an image a pod pulls): the first failure is
// retried at once, later ones wait 10 s doubling to 5 minutes, measured from the failure. A key
// not failing for twice the cap starts over, so a container that crashes once a day is not
// held back for minutes.

import { KeyedBackoff } from '../../api/backoff.ts';

export interface BackoffState { inBackoff: boolean; delayMs: number; remainingMs: number }

export interface RestartBackoff {
  /** whether a failure at `since` (ms) is still being waited out */
  check(key: string, since: number): BackoffState;
  /** a retry is happening now: the next failure waits longer */
  next(key: string, since: number): void;
  forget(prefix: string): void;
}

export function restartBackoff(now: () => number, initialMs = 10_000, maxMs = 300_000): RestartBackoff {
  const keys = new KeyedBackoff({ initialMs, maxMs }, { now, forgetAfterMs: 2 * maxMs });
  return {
    check(key, since) {
      const delayMs = keys.current(key);
      if (delayMs === undefined) return { inBackoff: false, delayMs: 0, remainingMs: 0 };
      const remaining = since + delayMs - now();
      return { inBackoff: remaining > 0, delayMs, remainingMs: Math.max(0, remaining) };
    },
    next(key, since) { keys.next(key, since); },
    forget(prefix) { keys.forgetPrefix(prefix); },
  };
}
