// The apiserver_flowcontrol_* metrics kube-apiserver exposes, under its names, labels, buckets and
// help texts: rejections and dispatches per flow, the wait in queue, the requests and seats in
// queue and executing now, the watches each write was charged for, and each level's seat limits.

import { CounterFamily, GaugeFamily, HistogramFamily, type CounterSeries, type Family, type HistogramSeries } from '../../api/metrics/families.ts';
import type { RejectReason } from './queueset.ts';

const waitBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const watchCountBuckets = [0, 1, 10, 100, 1000, 10000];

/** what is in flight now for one flow schema at one level */
export interface FlowGauges { inQueue: number; executing: number; seats: number }

export interface LevelSeats { nominal: number; current: number; lower: number; upper: number }

export interface FlowControlMetrics {
  readonly families: Family[];
  /** the live counts of a flow schema at a level, kept by the dispatcher, read at scrape time */
  gauges(level: string, flowSchema: string): FlowGauges;
  rejected(level: string, flowSchema: string, reason: RejectReason): void;
  dispatched(level: string, flowSchema: string): void;
  waited(level: string, flowSchema: string, executed: boolean, seconds: number): void;
  /** the interested watches a write's work was estimated from */
  watchCount(level: string, flowSchema: string, watches: number): void;
  /** where each level's seat limits are read at scrape time */
  limits(source: () => Iterable<readonly [string, LevelSeats]>): void;
}

export function createFlowControlMetrics(): FlowControlMetrics {
  const flowLabels = ['priority_level', 'flow_schema'];
  const rejected = new CounterFamily('apiserver_flowcontrol_rejected_requests_total', '[BETA] Number of requests rejected by API Priority and Fairness subsystem', [...flowLabels, 'reason']);
  const dispatched = new CounterFamily('apiserver_flowcontrol_dispatched_requests_total', '[BETA] Number of requests executed by API Priority and Fairness subsystem', flowLabels);
  const wait = new HistogramFamily('apiserver_flowcontrol_request_wait_duration_seconds', '[BETA] Length of time a request spent waiting in its queue', [...flowLabels, 'execute'], waitBuckets);
  const watchCounts = new HistogramFamily('apiserver_flowcontrol_watch_count_samples', '[ALPHA] count of watchers for mutating requests in API Priority and Fairness', flowLabels, watchCountBuckets);
  const live = new Map<string, { level: string; flowSchema: string; g: FlowGauges }>();
  const series = new Map<string, CounterSeries | HistogramSeries>();
  let levels: () => Iterable<readonly [string, LevelSeats]> = () => [];
  const liveGauge = (name: string, help: string, pick: (g: FlowGauges) => number) =>
    new GaugeFamily(name, help, flowLabels, function* () { for (const f of live.values()) yield [[f.level, f.flowSchema], pick(f.g)] as const; });
  const levelGauge = (name: string, help: string, pick: (s: LevelSeats) => number) =>
    new GaugeFamily(name, help, ['priority_level'], function* () { for (const [l, s] of levels()) yield [[l], pick(s)] as const; });
  const cached = <T extends CounterSeries | HistogramSeries>(key: string, make: () => T): T => {
    let s = series.get(key) as T | undefined;
    if (!s) series.set(key, s = make());
    return s;
  };
  return {
    families: [
      rejected, dispatched, wait, watchCounts,
      liveGauge('apiserver_flowcontrol_current_inqueue_requests', '[BETA] Number of requests currently pending in queues of the API Priority and Fairness subsystem', g => g.inQueue),
      liveGauge('apiserver_flowcontrol_current_executing_requests', '[BETA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', g => g.executing),
      liveGauge('apiserver_flowcontrol_current_executing_seats', '[BETA] Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', g => g.seats),
      levelGauge('apiserver_flowcontrol_nominal_limit_seats', '[BETA] Nominal number of execution seats configured for each priority level', s => s.nominal),
      levelGauge('apiserver_flowcontrol_current_limit_seats', '[ALPHA] current derived number of execution seats available to each priority level', s => s.current),
      levelGauge('apiserver_flowcontrol_lower_limit_seats', '[ALPHA] Configured lower bound on number of execution seats available to each priority level', s => s.lower),
      levelGauge('apiserver_flowcontrol_upper_limit_seats', '[ALPHA] Configured upper bound on number of execution seats available to each priority level', s => s.upper),
    ],
    gauges(level, flowSchema) {
      const key = `${level}\u0000${flowSchema}`;
      let f = live.get(key);
      if (!f) live.set(key, f = { level, flowSchema, g: { inQueue: 0, executing: 0, seats: 0 } });
      return f.g;
    },
    rejected(level, flowSchema, reason) {
      cached(`r\u0000${level}\u0000${flowSchema}\u0000${reason}`, () => rejected.with(level, flowSchema, reason)).value++;
    },
    dispatched(level, flowSchema) {
      cached(`d\u0000${level}\u0000${flowSchema}`, () => dispatched.with(level, flowSchema)).value++;
    },
    waited(level, flowSchema, executed, seconds) {
      const execute = String(executed);
      wait.observe(cached(`w\u0000${level}\u0000${flowSchema}\u0000${execute}`, () => wait.with(level, flowSchema, execute)), seconds);
    },
    watchCount(level, flowSchema, watches) {
      watchCounts.observe(cached(`c\u0000${level}\u0000${flowSchema}`, () => watchCounts.with(level, flowSchema)), watches);
    },
    limits(source) { levels = source; },
  };
}
