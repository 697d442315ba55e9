// apiserver_current_inflight_requests: kube-apiserver reports, per request kind, the most
// requests in flight at once during the last second rather than the count at the moment of the
// scrape, which would almost always be the scrape itself. Here the peak is kept since the last
// reading that is at least a second old, and a reading starts the next window from the count
// then in flight.

export type RequestKind = 'readOnly' | 'mutating';

export class InflightWatermark {
  private current = { readOnly: 0, mutating: 0 };
  private peak = { readOnly: 0, mutating: 0 };
  private windowStart: number;
  private now: () => number;
  constructor(now: () => number = Date.now) {
    this.now = now;
    this.windowStart = now();
  }

  started(kind: RequestKind): void {
    const n = ++this.current[kind];
    if (n > this.peak[kind]) this.peak[kind] = n;
  }

  finished(kind: RequestKind): void {
    this.current[kind]--;
  }

  /** the peak per kind of the window now ending; a window shorter than a second goes on */
  read(): Record<RequestKind, number> {
    const out = { ...this.peak };
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.peak = { ...this.current };
      this.windowStart = t;
    }
    return out;
  }
}
