// How often the APF configuration controller may write FlowSchema status, as kube-apiserver's
// paces its Dangling-condition writes: one FlowSchema gets at most six writes in any minute (two
// servers, or a server and a user, that disagree about a condition would otherwise rewrite it
// without end), a write held back comes back in 30 to 75 seconds, and a pass whose writes failed
// is tried again after 200 ms, doubling on each failing pass up to 8 hours until one succeeds.

const window = 60_000;
const maxWritesPerWindow = 6;
const backoffBaseMs = 200;
const backoffMaxMs = 8 * 3600_000;

export interface PacingDeps {
  /** the clock, in ms */
  now?: () => number;
  /** in [0, 1), for the spread of the held-back retry */
  random?: () => number;
  /** runs `fn` after `ms`; answers a cancel */
  schedule?: (fn: () => void, ms: number) => () => void;
}

const timer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

export class StatusPacing {
  private attempts = new Map<string, number[]>();
  private failures = 0;
  private pending?: { at: number; cancel: () => void };
  private now: () => number;
  private random: () => number;
  private schedule: NonNullable<PacingDeps['schedule']>;
  private resync: () => void;

  /** `resync` is the pass to run again when a write was held back or failed */
  constructor(resync: () => void, deps: PacingDeps = {}) {
    this.resync = resync;
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.schedule = deps.schedule ?? timer;
  }

  /** whether the FlowSchema may be written now; a write let through counts, whatever its outcome */
  mayWrite(name: string): boolean {
    const t = this.now();
    const recent = (this.attempts.get(name) ?? []).filter(at => t - at <= window);
    if (recent.length >= maxWritesPerWindow) {
      this.attempts.set(name, recent);
      return false;
    }
    recent.push(t);
    this.attempts.set(name, recent);
    return true;
  }

  /** the end of a pass: what it held back or failed to write is tried again later */
  passDone(outcome: { failed: boolean; heldBack: boolean }): void {
    if (outcome.failed) {
      const delay = Math.min(backoffBaseMs * 2 ** this.failures, backoffMaxMs);
      this.failures++;
      this.again(delay);
    } else if (outcome.heldBack) {
      this.again((30 + Math.floor(this.random() * 45)) * 1000);
    } else {
      this.failures = 0;
    }
    this.forgetOld();
  }

  stop(): void {
    this.pending?.cancel();
    this.pending = undefined;
  }

  /** one pass is pending at a time, the earliest asked for */
  private again(ms: number): void {
    const at = this.now() + ms;
    if (this.pending && this.pending.at <= at) return;
    this.pending?.cancel();
    this.pending = {
      at,
      cancel: this.schedule(() => { this.pending = undefined; this.resync(); }, ms),
    };
  }

  private forgetOld(): void {
    const t = this.now();
    for (const [name, times] of this.attempts) if (times.every(at => t - at > window)) this.attempts.delete(name);
  }
}
