// The Prometheus text a component's /metrics answers: its own families (families.ts) and
// Node's process and runtime figures from prom-client's default metrics, which stand where Go
// components show go_* and process_*. Each component has its own registry, never prom-client's
// global one, so several servers in one process (tests, `orch up`) keep their figures apart.
// prom-client is not loaded with the component: the API server loads it a moment after it is
// ready (preloadPromClient), off every request's path, and anything else by its first scrape;
// its default metrics (event loop lag, GC, with their timers) count from the first scrape on,
// but for the CPU counters, which count from the process's start as Go's do.

import type * as PromClient from 'prom-client';
import { lazyModule } from '../lazy-module.ts';
import type { Family } from './families.ts';

const promClient = lazyModule<typeof PromClient>('prom-client');

/**
 * Loads prom-client now. Loading it inside the first scrape made that scrape wait for the
 * library's modules to be read and run, which under load stretched to about a second; loaded
 * once the server is up, it measured no idle RSS of its own (its default metrics, which keep
 * timers, still start only with a scrape).
 */
export function preloadPromClient(): void {
  promClient();
}

export interface Exposition {
  /** the text exposition format (0.0.4) and its content type */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function exposition(families: () => readonly Family[]): Exposition {
  let registry: PromClient.Registry | undefined;
  const known = new Set<string>();
  const ensure = (): PromClient.Registry => {
    const prom = promClient();
    if (!registry) {
      registry = new prom.Registry();
      const before = process.cpuUsage();
      prom.collectDefaultMetrics({ register: registry });
      // prom-client counts CPU from its registration on; Go's process collector, which every
      // Kubernetes component exposes, from the process's start
      const add = (name: string, micros: number) => (registry!.getSingleMetric(name) as PromClient.Counter | undefined)?.inc(micros / 1e6);
      add('process_cpu_user_seconds_total', before.user);
      add('process_cpu_system_seconds_total', before.system);
      add('process_cpu_seconds_total', before.user + before.system);
    }
    for (const f of families()) {
      if (known.has(f.name)) continue;
      known.add(f.name);
      const opts = { name: f.name, help: f.help, labelNames: [...f.labelNames], registers: [registry] };
      const metric = f.type === 'counter' ? new prom.Counter(opts) : f.type === 'gauge' ? new prom.Gauge(opts) : new prom.Histogram({ ...opts, buckets: [...f.buckets!] });
      // the figures live in the family; prom-client only names, escapes and writes them
      // (histograms are written through getForPromString, the rest through get)
      const read = async () => ({ name: f.name, help: f.help, type: f.type, values: f.samples(), aggregator: 'sum' });
      Object.assign(metric, { get: read, getForPromString: read });
    }
    return registry;
  };
  return {
    async scrape() {
      const r = ensure();
      return { contentType: r.contentType, body: await r.metrics() };
    },
  };
}
