// The API server's /metrics: kube-apiserver's request, in-flight, watch, storage and object
// count metrics under their names, labels, buckets and help texts, plus Node's process figures.
// Recording is done on plain numbers (api/metrics/families.ts), each request's series found
// through maps keyed by the served resource object and a short string, so a request costs a
// few lookups and additions.

import { CounterFamily, GaugeFamily, HistogramFamily, type CounterSeries, type Family, type HistogramSeries } from '../../api/metrics/families.ts';
import { exposition, type Exposition } from '../../api/metrics/exposition.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { RequestContext } from '../context.ts';
import { InflightWatermark } from './inflight.ts';
import { dryRunLabel, nonResourceLabels, reportedVerb, requestScope, subresourceName } from './request-labels.ts';

// the request and storage latency buckets of kube-apiserver (SLO-shaped, 5 ms to a minute)
const latencyBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const requestLabels = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
const storageLabels = ['operation', 'group', 'resource'];

export type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete';

export interface ObjectCount { prefix: string; objects: number }

export interface ApiServerMetrics {
  readonly exposition: Exposition;
  readonly inflight: InflightWatermark;
  /** a request whose response is done, `seconds` after it came in */
  recordRequest(ctx: RequestContext, seconds: number): void;
  /** one storage call below the watch cache, on keys under the resource prefix `prefix` */
  recordStorage(operation: StorageOperation, prefix: string, seconds: number, failed: boolean): void;
  /** the counter a watch of this resource adds its sent events to */
  watchEvents(info: ResourceInfo): CounterSeries;
  /** where the object counts per resource prefix are read at scrape time (the watch cache's) */
  countObjects(source: () => Iterable<ObjectCount>): void;
  /** where the storage's upkeep figures are read at scrape time */
  storageUpkeep(source: () => Promise<StorageUpkeep>): void;
  /** more families shown on /metrics (flow control's) */
  register(more: Family[]): void;
}

/** what shows that compaction keeps up and the files stay bounded */
export interface StorageUpkeep {
  /** when a compaction run last succeeded, in ms since the epoch (undefined: compaction off) */
  lastCompactionSuccessMs?: number;
  currentRevision: number;
  compactedRevision: number;
  /** the database files' size in bytes (SQLite: file and WAL), when the backend knows it */
  sizeBytes?: number;
}

interface RequestSeries { codes: Map<number, CounterSeries>; duration: HistogramSeries; labels: string[] }

/**
 * Series by four short keys, one map per key: a joined key would be a new string to hash on
 * every request, while these keys are mostly the same constant strings, whose hashes V8 keeps.
 */
class SeriesIndex {
  private root = new Map<string, Map<string, Map<string, Map<string, RequestSeries>>>>();
  get(a: string, b: string, c: string, d: string): RequestSeries | undefined {
    return this.root.get(a)?.get(b)?.get(c)?.get(d);
  }
  add(a: string, b: string, c: string, d: string, s: RequestSeries): RequestSeries {
    let m1 = this.root.get(a);
    if (!m1) this.root.set(a, m1 = new Map());
    let m2 = m1.get(b);
    if (!m2) m1.set(b, m2 = new Map());
    let m3 = m2.get(c);
    if (!m3) m2.set(c, m3 = new Map());
    m3.set(d, s);
    return s;
  }
}

/** `/registry/deployments.apps/` → group `apps`, resource `deployments` (what Kubernetes prints as deployments.apps) */
export function groupResourceOfPrefix(prefix: string): { group: string; resource: string; both: string } {
  const both = prefix.replace(/^\/(registry\/)?/, '').replace(/\/$/, '');
  const dot = both.indexOf('.');
  return dot < 0 ? { group: '', resource: both, both } : { group: both.slice(dot + 1), resource: both.slice(0, dot), both };
}

export function createApiServerMetrics(now: () => number = Date.now): ApiServerMetrics {
  const total = new CounterFamily('apiserver_request_total', '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', [...requestLabels, 'code']);
  const duration = new HistogramFamily('apiserver_request_duration_seconds', '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', requestLabels, latencyBuckets);
  const watchEvents = new CounterFamily('apiserver_watch_events_total', '[ALPHA] Number of events sent in watch clients', ['group', 'version', 'kind']);
  const etcdDuration = new HistogramFamily('etcd_request_duration_seconds', '[ALPHA] Etcd request latency in seconds for each operation and object type.', storageLabels, latencyBuckets);
  const etcdTotal = new CounterFamily('etcd_requests_total', '[ALPHA] Etcd request counts for each operation and object type.', storageLabels);
  const etcdErrors = new CounterFamily('etcd_request_errors_total', '[ALPHA] Etcd failed request counts for each operation and object type.', storageLabels);
  const inflight = new InflightWatermark(now);
  let objects: () => Iterable<ObjectCount> = () => [];
  let upkeep: (() => Promise<StorageUpkeep>) | undefined;
  let lastUpkeep: StorageUpkeep | undefined;
  // read before each scrape (the gauges themselves are read synchronously)
  const refreshUpkeep = async () => { lastUpkeep = upkeep ? await upkeep().catch(() => undefined) : undefined; };
  const upkeepGauge = (name: string, help: string, labels: string[], read: (u: StorageUpkeep) => readonly (readonly [string[], number])[]) =>
    new GaugeFamily(name, help, labels, () => (lastUpkeep ? read(lastUpkeep) : []));
  const countsByResource = function* (withGroup: boolean): Iterable<readonly [string[], number]> {
    for (const { prefix, objects: n } of objects()) {
      const gr = groupResourceOfPrefix(prefix);
      yield [withGroup ? [gr.group, gr.resource] : [gr.both], n];
    }
  };
  const families: Family[] = [
    total, duration,
    new GaugeFamily('apiserver_current_inflight_requests', '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.', ['request_kind'], () => Object.entries(inflight.read()).map(([k, v]) => [[k], v] as const)),
    new GaugeFamily('apiserver_storage_objects', '[STABLE] (Deprecated since 1.34.0) [DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.', ['resource'], () => countsByResource(false)),
    new GaugeFamily('apiserver_resource_objects', '[ALPHA] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.', ['group', 'resource'], () => countsByResource(true)),
    watchEvents, etcdDuration, etcdTotal, etcdErrors,
    upkeepGauge('apiserver_storage_size_bytes', '[STABLE] Size of the storage database file physically allocated in bytes.', ['storage_cluster_id'], u => (u.sizeBytes === undefined ? [] : [[['sqlite'], u.sizeBytes]])),
    upkeepGauge('orch_storage_compaction_last_success_timestamp_seconds', 'When storage compaction last succeeded, in seconds since the epoch; readyz fails once three intervals pass without one.', [], u => (u.lastCompactionSuccessMs === undefined ? [] : [[[], u.lastCompactionSuccessMs / 1000]])),
    upkeepGauge('orch_storage_compaction_lag_revisions', 'Revisions of history held: the current revision less the compacted one.', [], u => [[[], u.currentRevision - u.compactedRevision]]),
  ];

  const byResource = new WeakMap<ResourceInfo, SeriesIndex>();
  const byPath = new SeriesIndex();
  const seriesOf = (labels: string[]): RequestSeries => ({ codes: new Map(), duration: duration.with(...labels), labels });
  const storageSeries = new Map<string, { duration: HistogramSeries; total: CounterSeries; errors: CounterSeries }>();
  const watchSeries = new WeakMap<ResourceInfo, CounterSeries>();

  return {
    exposition: (() => {
      const inner = exposition(() => families);
      return { ...inner, scrape: async () => { await refreshUpkeep(); return inner.scrape(); } };
    })(),
    inflight,
    recordRequest(ctx, seconds) {
      const info = ctx.info;
      let series: RequestSeries | undefined;
      const verb = reportedVerb(ctx.method, info, ctx.headers['content-type']);
      const dryRun = ctx.query.size === 0 ? '' : dryRunLabel(ctx.query);
      if (info.isResourceRequest) {
        // only requests that reached a served resource (and an implemented subresource), as
        // only kube-apiserver's installed routes are instrumented
        const r = ctx.resource;
        if (!r || (info.subresource && !ctx.subresource)) return;
        const scope = requestScope(info);
        const sub = subresourceName(info);
        let forResource = byResource.get(r);
        if (!forResource) byResource.set(r, forResource = new SeriesIndex());
        series = forResource.get(verb, scope, sub, dryRun) ?? forResource.add(verb, scope, sub, dryRun, seriesOf([verb, dryRun, r.group, r.version, info.resource, sub, scope, 'apiserver']));
      } else {
        const path = nonResourceLabels(info.path);
        if (!path) return;
        series = byPath.get(verb, info.path, dryRun, '') ?? byPath.add(verb, info.path, dryRun, '', seriesOf([verb, dryRun, '', '', '', path.subresource, '', path.component]));
      }
      const code = ctx.res.statusCode;
      let counter = series.codes.get(code);
      if (!counter) series.codes.set(code, counter = total.with(...series.labels, String(code)));
      counter.value++;
      duration.observe(series.duration, seconds);
    },
    recordStorage(operation, prefix, seconds, failed) {
      const key = `${operation} ${prefix}`;
      let s = storageSeries.get(key);
      if (!s) {
        const { group, resource } = groupResourceOfPrefix(prefix);
        s = { duration: etcdDuration.with(operation, group, resource), total: etcdTotal.with(operation, group, resource), errors: etcdErrors.with(operation, group, resource) };
        storageSeries.set(key, s);
      }
      etcdDuration.observe(s.duration, seconds);
      s.total.value++;
      if (failed) s.errors.value++;
    },
    watchEvents(info) {
      let s = watchSeries.get(info);
      if (!s) watchSeries.set(info, s = watchEvents.with(info.group, info.version, info.kind));
      return s;
    },
    countObjects(source) { objects = source; },
    storageUpkeep(source) { upkeep = source; },
    register(more) { families.push(...more); },
  };
}
