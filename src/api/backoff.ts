// Retry delays, one rule for every component: exponential from an initial delay, capped,
// optionally jittered, with time from the caller's clock. `Backoff` paces one retrying operation
// (a reflector's lists, a lease renewal); `KeyedBackoff` paces many keys apart (a work queue's
// failed keys, a container's restarts), and forgets a key quiet for long enough. The numbers are
// apimachinery's wait.Backoff: the delay grows by `factor` up to `maxMs`, and jitter, where a
// caller asks for it (Kubernetes' reflectors and pod workers do; its work queues, lease
// renewals, node registration and CrashLoopBackOff do not), lengthens a delay by up to
// `jitter` times itself, after the cap, as wait.Jitter does.

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** growth per further retry; default 2 */
  factor?: number;
  /** each delay d becomes d + random·jitter·d, in [d, d·(1 + jitter)); default 0 (exact delays) */
  jitter?: number;
}

/** the delay before retry `attempt` (0 is the first); `random` in [0, 1) as Math.random gives */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  // (a zero initial delay stays zero however many retries: 0·∞ would be NaN)
  const base = policy.initialMs > 0 ? Math.min(policy.initialMs * (policy.factor ?? 2) ** attempt, policy.maxMs) : 0;
  const jitter = policy.jitter ?? 0;
  // whole milliseconds, as Go's durations are whole nanoseconds
  return jitter > 0 ? Math.floor(base + random() * jitter * base) : base;
}

/** the delays of one retrying operation: each longer than the last up to the cap, until reset */
export class Backoff {
  private attempt = 0;
  private readonly policy: BackoffPolicy;
  private readonly random: () => number;

  constructor(policy: BackoffPolicy, random: () => number = Math.random) {
    this.policy = policy;
    this.random = random;
  }

  next(): number {
    return backoffDelay(this.policy, this.attempt++, this.random);
  }

  /** a success: the next failure waits the initial delay again */
  reset(): void {
    this.attempt = 0;
  }
}

export interface KeyedBackoffOptions {
  /** the clock's time in ms (failures are recorded at it unless told otherwise) */
  now?: () => number;
  /** a key with no failure for this long starts over (default: never) */
  forgetAfterMs?: number;
  random?: () => number;
}

/** delays per key: each failure of a key makes its next delay longer; forget() starts it over */
export class KeyedBackoff {
  private readonly entries = new Map<string, { attempt: number; lastFailure: number; delayMs: number }>();
  private readonly policy: BackoffPolicy;
  private readonly opts: KeyedBackoffOptions;

  constructor(policy: BackoffPolicy, opts: KeyedBackoffOptions = {}) {
    this.policy = policy;
    this.opts = opts;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && this.opts.forgetAfterMs !== undefined && this.now() - e.lastFailure > this.opts.forgetAfterMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  /** a failure of `key` (at `at`, default now): the delay before its retry */
  next(key: string, at: number = this.now()): number {
    const e = this.live(key);
    const attempt = e ? e.attempt + 1 : 0;
    const delayMs = backoffDelay(this.policy, attempt, this.opts.random);
    this.entries.set(key, { attempt, lastFailure: at, delayMs });
    return delayMs;
  }

  /** the delay in force for `key` since its last failure; undefined when it has none */
  current(key: string): number | undefined {
    const e = this.live(key);
    return e?.delayMs;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** forgets every key that starts with `prefix` */
  forgetPrefix(prefix: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
