// The Retry-After a rejected request is told, per priority level: it starts at one second,
// doubles (up to 32) when a level keeps rejecting — at least three rejections per second of the
// current value over that many seconds, and no sooner than that many seconds after the last
// increase — and comes down by one per second while rejections are rarer, so that clients back
// off under a sustained overload and come back soon after a spike.

const maxRetryAfter = 32;

interface SecondCount { second: number; count: number }

class LevelDrops {
  history: SecondCount[] = [];
  currentSecond = -1;
  currentCount = 0;
  retryAfter = 1;
  lastIncrease = 0;

  record(second: number): void {
    if (second === this.currentSecond) { this.currentCount++; return; }
    if (this.currentSecond >= 0) this.history.push({ second: this.currentSecond, count: this.currentCount });
    while (this.history.length > 0 && second - 1 - this.history[0]!.second > maxRetryAfter) this.history.shift();
    this.currentSecond = second;
    this.currentCount = 1;
    this.adjust(second);
  }

  /** looks back over the `retryAfter` seconds before `second` */
  private adjust(second: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i]!;
      if (second - h.second > this.retryAfter) break;
      if (h.second < second) dropped += h.count;
    }
    if (second - this.lastIncrease >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(maxRetryAfter, this.retryAfter * 2);
      this.lastIncrease = second;
    } else if (dropped < this.retryAfter && this.retryAfter > 1) {
      this.retryAfter--;
    }
  }
}

export class RetryAfter {
  private levels = new Map<string, LevelDrops>();
  private now: () => number;
  constructor(now: () => number = Date.now) { this.now = now; }

  /** notes a rejection at the level and answers the Retry-After seconds to send with it */
  rejected(level: string): number {
    let l = this.levels.get(level);
    if (!l) this.levels.set(level, l = new LevelDrops());
    l.record(Math.floor(this.now() / 1000));
    return l.retryAfter;
  }
}
