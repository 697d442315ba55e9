// The endpoints controller: every Service with a selector gets a core/v1 Endpoints of its name,
// deprecated since Kubernetes 1.33 but still kept, since older clients and tools read it.

import type { Logger } from '../../api/log.ts';
import { rfc3339Nano } from '../../api/time.ts';
import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import { jsonEqual } from '../../api/object.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { WrittenVersions } from '../written-versions.ts';
import { desiredEndpoints, type EndpointsObject } from './endpoints-object.ts';
import type { Pod, Service } from './pod-endpoint.ts';
import { endpointRelevant, publishesEndpoints, selectedPods, servicesSelecting } from './service-pods.ts';
import { TriggerTimeTracker } from './trigger-time.ts';

/** the annotation of a leader-election lock kept in an Endpoints object, which no service owns */
const leaderElectionAnnotation = 'control-plane.alpha.kubernetes.io/leader';

export function startEndpointsController(client: Client, log: Logger, opts: { informers: InformerFactory; workers?: number }): { stop(): void } {
  const services = opts.informers.informer<Service>('/api/v1/services');
  const pods = opts.informers.informer<Pod>('/api/v1/pods');
  const endpoints = opts.informers.informer<EndpointsObject>('/api/v1/endpoints');
  const events = eventRecorder(client, 'endpoint-controller', log, undefined, Date.now, { correlate: true });
  const triggers = new TriggerTimeTracker();
  const written = new WrittenVersions();
  const synced = Promise.all([services.synced(), pods.synced(), endpoints.synced()]);
  const path = (ns: string, name?: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/endpoints${name ? `/${encodeURIComponent(name)}` : ''}`;

  async function sync(key: string) {
    await synced;
    const [ns, name] = key.split('/') as [string, string];
    if (written.stale(key, () => endpoints.get(key))) return { requeueAfterMs: 100 };
    const svc = services.get(key);
    if (!svc) {
      triggers.forget(key);
      const ep = endpoints.get(key);
      if (!ep || ep.metadata.annotations?.[leaderElectionAnnotation]) return;
      await client.delete(path(ns, name)).catch(err => { if (!isNotFound(err)) throw err; });
      written.deleted(key, name);
      return;
    }
    if (!publishesEndpoints(svc)) return;
    const selected = selectedPods(svc, pods.list());
    const trigger = triggers.compute(key, svc, selected);
    const current = endpoints.get(key);
    const next = desiredEndpoints(svc, selected, current, trigger ? rfc3339Nano(Date.parse(trigger)) : undefined);
    if (!next) return;
    try {
      written.wrote(key, current ? await client.update(path(ns, name), next) : await client.create(path(ns), next));
    } catch (err) {
      // an Endpoints made by someone else meanwhile: the informer brings it, and the next sync updates it
      if (!current && isAlreadyExists(err)) return { requeueAfterMs: 200 };
      const target = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: ns } };
      if (current) events.record(target, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${key}: ${(err as Error).message}`);
      else events.record(target, 'Warning', 'FailedToCreateEndpoint', `Failed to create endpoint for service ${key}: ${(err as Error).message}`);
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
  // Endpoints left from services deleted while no controller ran go too
  void endpoints.synced().then(() => { for (const ep of endpoints.list()) if (!services.get(objectKey(ep))) queue.add(objectKey(ep)); });
  return { stop() { queue.shutdown(); } };
}
