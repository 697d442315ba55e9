// Metric families as plain numbers, for the hot paths of the API server and the agent. A caller
// looks its series up once (by label values) and keeps it, so recording a request is a few
// additions with no label object, hashing or validation; prom-client, which does all of that
// on every call (about 7 µs per counter and histogram update), only reads these at scrape time
// (exposition.ts).

export type Labels = Record<string, string>;

/** one labelled series' value, as prom-client's registry writes it */
export interface SampleValue { labels: Labels; value: number; metricName?: string }

export interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly labelNames: readonly string[];
  readonly buckets?: readonly number[];
  samples(): SampleValue[];
}

function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  if (values.length !== names.length) throw new Error(`expected ${names.length} label values (${names.join(', ')}), got ${values.length}`);
  const out: Labels = {};
  names.forEach((n, i) => { out[n] = values[i]!; });
  return out;
}

export interface CounterSeries { readonly labels: Labels; value: number }

export class CounterFamily implements Family {
  readonly type = 'counter';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  private series = new Map<string, CounterSeries>();
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    this.name = name; this.help = help; this.labelNames = labelNames;
  }
  /** the series of these label values (in labelNames' order), made on first use */
  with(...values: string[]): CounterSeries {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, s = { labels: labelsOf(this.labelNames, values), value: 0 });
    return s;
  }
  samples(): SampleValue[] {
    return [...this.series.values()].map(s => ({ labels: s.labels, value: s.value }));
  }
}

export interface HistogramSeries {
  readonly labels: Labels;
  /** observations per bucket, not cumulative; the last slot is past every bound (+Inf) */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export class HistogramFamily implements Family {
  readonly type = 'histogram';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];
  private series = new Map<string, HistogramSeries>();
  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    this.name = name; this.help = help; this.labelNames = labelNames; this.buckets = buckets;
  }
  with(...values: string[]): HistogramSeries {
    const key = values.join('\u0000');
    let s = this.series.get(key);
    if (!s) this.series.set(key, s = { labels: labelsOf(this.labelNames, values), counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 });
    return s;
  }
  observe(s: HistogramSeries, value: number): void {
    const b = this.buckets;
    let i = 0;
    while (i < b.length && value > b[i]!) i++;
    s.counts[i]!++;
    s.sum += value;
    s.count++;
  }
  samples(): SampleValue[] {
    const out: SampleValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += s.counts[i]!;
        out.push({ metricName: bucketName, labels: { ...s.labels, le: String(bound) }, value: cumulative });
      });
      out.push({ metricName: bucketName, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      out.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      out.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  }
}

/** a gauge read at scrape time: `read` answers each series' label values (labelNames' order) and value */
export class GaugeFamily implements Family {
  readonly type = 'gauge';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  private read: () => Iterable<readonly [readonly string[], number]>;
  constructor(name: string, help: string, labelNames: readonly string[], read: () => Iterable<readonly [readonly string[], number]>) {
    this.name = name; this.help = help; this.labelNames = labelNames; this.read = read;
  }
  samples(): SampleValue[] {
    return [...this.read()].map(([values, value]) => ({ labels: labelsOf(this.labelNames, values), value }));
  }
}

/** prometheus.ExponentialBuckets: count bounds from start, each factor times the one before */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}
