// How far the cache has read the backend's event stream, and waiting for it to get further.
// Reads that must be at least as new as some revision (consistent reads, "not older than")
// park here until the stream passes it or a deadline comes.

interface Waiter { revision: number; done(reached: boolean): void; timer: NodeJS.Timeout }

export class RevisionClock {
  /** every event up to and including this revision has been applied */
  revision = 0;
  private waiters: Waiter[] = [];

  advance(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.revision <= revision) {
        clearTimeout(w.timer);
        w.done(true);
      } else {
        still.push(w);
      }
    }
    this.waiters = still;
  }

  /** resolves true once the clock reaches `revision`, false after `timeoutMs` */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (revision <= this.revision) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise(resolve => {
      const w: Waiter = {
        revision,
        done: resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter(x => x !== w);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  /** the stream is gone: nobody will be woken by it */
  failAll(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.done(false);
    }
    this.waiters = [];
  }
}
