// CPU rates from cumulative counters: the Summary API reports usageNanoCores, which no counter
// holds, so each source's previous sample is kept and the rate is the counter's growth over the
// time between samples. Samples closer than a second apart keep the last rate, so that readers
// polling at once (kubectl top right after a scrape) do not see the noise of a tiny interval.

export interface CpuSample {
  /** nanoseconds since the epoch */
  timeNs: number;
  /** cumulative CPU time in nanoseconds */
  usageNs: number;
}

const minIntervalNs = 1e9;

export class CpuRates {
  readonly #last = new Map<string, { sample: CpuSample; rate?: number }>();

  /** the rate in nanocores for `key` now, undefined until two samples a second apart were seen */
  rate(key: string, s: CpuSample): number | undefined {
    const prev = this.#last.get(key);
    if (!prev || s.usageNs < prev.sample.usageNs) {
      // first sight, or the counter restarted (a new container under the same key)
      this.#last.set(key, { sample: s });
      return undefined;
    }
    const dt = s.timeNs - prev.sample.timeNs;
    if (dt < minIntervalNs) return prev.rate;
    const rate = Math.round(((s.usageNs - prev.sample.usageNs) / dt) * 1e9);
    this.#last.set(key, { sample: s, rate });
    return rate;
  }

  /** forgets sources not in `keep` (removed containers) */
  retain(keep: Set<string>): void {
    for (const k of this.#last.keys()) if (!keep.has(k)) this.#last.delete(k);
  }
}
