// A level's seat demand (seats executing plus seats its waiting requests ask for) integrated over
// time, and its smoothed envelope: what the periodic re-division of seats among levels targets.

// how much of the previous smoothed demand survives each adjustment period (Kubernetes' 0.977)
const smoothing = 0.977;

export class SeatDemand {
  private value = 0;
  private since: number;
  private lastChange: number;
  private integral = 0;
  private squares = 0;
  private max = 0;
  /** the demand's envelope (mean plus deviation), smoothed over periods */
  smoothed = 0;
  /** the highest demand of the last period */
  highWatermark = 0;
  private now: () => number;
  constructor(now: () => number) {
    this.now = now;
    this.since = this.lastChange = now();
  }

  set(value: number): void {
    this.advance();
    this.value = value;
    if (value > this.max) this.max = value;
  }

  /** closes the period: its high watermark and the smoothed envelope are updated, a new period starts */
  endPeriod(): void {
    this.advance();
    const duration = this.lastChange - this.since;
    this.highWatermark = this.max;
    if (duration > 0) {
      const mean = this.integral / duration;
      const deviation = Math.sqrt(Math.max(0, this.squares / duration - mean * mean));
      const envelope = mean + deviation;
      this.smoothed = Math.max(envelope, smoothing * this.smoothed + (1 - smoothing) * envelope);
    }
    this.since = this.lastChange;
    this.integral = this.squares = 0;
    this.max = this.value;
  }

  private advance(): void {
    const t = this.now();
    const dt = t - this.lastChange;
    if (dt > 0) {
      this.integral += this.value * dt;
      this.squares += this.value * this.value * dt;
      this.lastChange = t;
    }
  }
}
