// The EndpointSlice controller: every Service with a selector gets discovery.k8s.io/v1
// EndpointSlices for the pods it selects, kept in step with pod readiness, addresses and ports.
// Decisions are reconcileSlices'; this file wires informers, the queue and the writes.

import type { Logger } from '../../api/log.ts';
import { rfc3339Nano } from '../../api/time.ts';
import { isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import { jsonEqual } from '../../api/object.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { WrittenVersions } from '../written-versions.ts';
import type { Pod, Service } from './pod-endpoint.ts';
import { endpointRelevant, publishesEndpoints, selectedPods, servicesSelecting } from './service-pods.ts';
import { controllerName, managedByLabel, reconcileSlices, serviceNameLabel, type ExistingSlice } from './slice-reconcile.ts';
import { TriggerTimeTracker } from './trigger-time.ts';

export interface EndpointSliceControllerOptions {
  informers: InformerFactory;
  /** --max-endpoints-per-slice */
  maxEndpointsPerSlice?: number;
  workers?: number;
}

const slicesPath = (ns: string) => `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(ns)}/endpointslices`;

export function startEndpointSliceController(client: Client, log: Logger, opts: EndpointSliceControllerOptions): { stop(): void } {
  const services = opts.informers.informer<Service>('/api/v1/services');
  const pods = opts.informers.informer<Pod>('/api/v1/pods');
  const slices = opts.informers.informer<ExistingSlice>('/apis/discovery.k8s.io/v1/endpointslices');
  const nodes = opts.informers.informer<{ metadata: { name: string; labels?: Record<string, string> } }>('/api/v1/nodes');
  const events = eventRecorder(client, 'endpoint-slice-controller', log, undefined, Date.now, { correlate: true });
  const triggers = new TriggerTimeTracker();
  const written = new WrittenVersions();
  const synced = Promise.all([services.synced(), pods.synced(), slices.synced(), nodes.synced()]);

  const mine = (s: ExistingSlice) => s.metadata.labels?.[managedByLabel] === controllerName;
  const slicesOf = (ns: string, name: string) =>
    slices.list().filter(s => s.metadata.namespace === ns && s.metadata.labels?.[serviceNameLabel] === name && mine(s));

  async function sync(key: string) {
    await synced;
    const [ns, name] = key.split('/') as [string, string];
    const svc = services.get(key);
    if (written.stale(key, n => slices.get(`${ns}/${n}`))) return { requeueAfterMs: 100 };
    if (!svc) {
      // the garbage collector would take them through their owner reference; removing them here
      // does not wait for it
      triggers.forget(key);
      for (const s of slicesOf(ns, name)) {
        await client.delete(`${slicesPath(ns)}/${encodeURIComponent(s.metadata.name)}`).catch(err => { if (!isNotFound(err)) throw err; });
        written.deleted(key, s.metadata.name);
      }
      return;
    }
    if (!publishesEndpoints(svc)) return;
    const selected = selectedPods(svc, pods.list());
    const trigger = triggers.compute(key, svc, selected);
    const changes = reconcileSlices({
      service: svc, pods: selected, existing: slicesOf(ns, name), maxEndpointsPerSlice: opts.maxEndpointsPerSlice,
      zoneOf: node => nodes.get(node)?.metadata.labels?.['topology.kubernetes.io/zone'],
      triggerTime: trigger ? rfc3339Nano(Date.parse(trigger)) : undefined,
    });
    try {
      for (const s of changes.delete) {
        await client.delete(`${slicesPath(ns)}/${encodeURIComponent(s.metadata.name)}`).catch(err => { if (!isNotFound(err)) throw err; });
        written.deleted(key, s.metadata.name);
      }
      for (const s of changes.update) written.wrote(key, await client.update(`${slicesPath(ns)}/${encodeURIComponent(s.metadata.name)}`, s));
      for (const s of changes.create) written.wrote(key, await client.create(slicesPath(ns), s));
    } catch (err) {
      events.record({ apiVersion: 'v1', kind: 'Service', metadata: svc.metadata }, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${key}: ${(err as Error).message}`);
      throw err;
    }
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 100, maxDelayMs: 30_000, log });
  const enqueuePod = (...ps: Pod[]) => {
    for (const key of new Set(servicesSelecting(services.list(), ps[0]!.metadata.namespace, ...ps.map(p => p.metadata.labels)))) queue.add(key);
  };
  services.on('add', s => queue.add(objectKey(s))).on('update', (_o, s) => queue.add(objectKey(s))).on('delete', s => queue.add(objectKey(s)));
  pods.on('add', p => enqueuePod(p))
    .on('update', (o, p) => { if (!jsonEqual(endpointRelevant(o), endpointRelevant(p))) enqueuePod(o, p); })
    .on('delete', p => enqueuePod(p));
  const sliceOwner = (s: ExistingSlice) => {
    const svc = s.metadata.labels?.[serviceNameLabel];
    if (svc && mine(s)) queue.add(`${s.metadata.namespace}/${svc}`);
  };
  slices.on('update', (_o, s) => sliceOwner(s)).on('delete', sliceOwner);
  return { stop() { queue.shutdown(); } };
}
