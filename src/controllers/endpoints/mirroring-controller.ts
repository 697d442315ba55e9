// The EndpointSlice mirroring controller: Endpoints of services without a selector become
// EndpointSlices, so that consumers of slices (kube-proxy, DNS, ingress controllers) see the
// endpoints users manage by hand. Decisions are mirroring.ts's and reconcileGroups'.

import type { Logger } from '../../api/log.ts';
import { isNotFound } from '../../client/api-error.ts';
import { objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { WrittenVersions } from '../written-versions.ts';
import type { EndpointsObject } from './endpoints-object.ts';
import { mirroredAnnotations, mirroredGroups, mirroredLabels, mirroringControllerName, shouldMirror } from './mirroring.ts';
import type { Service } from './pod-endpoint.ts';
import { defaultMaxEndpointsPerSlice, managedByLabel, reconcileGroups, serviceNameLabel, sliceObject, type ExistingSlice } from './slice-reconcile.ts';

const slicesPath = (ns: string) => `/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(ns)}/endpointslices`;

export function startMirroringController(client: Client, log: Logger, opts: { informers: InformerFactory; maxEndpointsPerSlice?: number }): { stop(): void } {
  const services = opts.informers.informer<Service>('/api/v1/services');
  const endpoints = opts.informers.informer<EndpointsObject>('/api/v1/endpoints');
  const slices = opts.informers.informer<ExistingSlice>('/apis/discovery.k8s.io/v1/endpointslices');
  const written = new WrittenVersions();
  const synced = Promise.all([services.synced(), endpoints.synced(), slices.synced()]);
  const mirrored = (ns: string, name: string) => slices.list().filter(s => s.metadata.namespace === ns && s.metadata.labels?.[serviceNameLabel] === name && s.metadata.labels?.[managedByLabel] === mirroringControllerName);

  async function sync(key: string) {
    await synced;
    const [ns, name] = key.split('/') as [string, string];
    if (written.stale(key, n => slices.get(`${ns}/${n}`))) return { requeueAfterMs: 100 };
    const ep = endpoints.get(key);
    const existing = mirrored(ns, name);
    const remove = async (s: ExistingSlice) => {
      await client.delete(`${slicesPath(ns)}/${encodeURIComponent(s.metadata.name)}`).catch(err => { if (!isNotFound(err)) throw err; });
      written.deleted(key, s.metadata.name);
    };
    if (!shouldMirror(services.get(key), ep)) {
      for (const s of existing) await remove(s);
      return;
    }
    const e = ep!;
    const labels = mirroredLabels(e);
    const annotations = mirroredAnnotations(e);
    const owner = { apiVersion: 'v1', kind: 'Endpoints', name: e.metadata.name, uid: e.metadata.uid as string };
    const changes = reconcileGroups(mirroredGroups(e), existing, {
      labels, annotationsMatter: true, annotate: () => annotations,
      newSlice: (type, ports, eps) => sliceObject(ns, owner, labels, annotations, type, ports, eps),
      max: opts.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice,
    });
    for (const s of changes.delete) await remove(s);
    for (const s of changes.update) written.wrote(key, await client.update(`${slicesPath(ns)}/${encodeURIComponent(s.metadata.name)}`, s));
    for (const s of changes.create) written.wrote(key, await client.create(slicesPath(ns), s));
  }

  const queue = createWorkQueue(sync, { concurrency: 3, baseDelayMs: 100, maxDelayMs: 30_000, log });
  const add = (o: { metadata: { name?: string; namespace?: string } }) => queue.add(objectKey(o));
  services.on('add', add).on('update', (_o, s) => add(s)).on('delete', add);
  endpoints.on('add', add).on('update', (_o, e) => add(e)).on('delete', add);
  const sliceOwner = (s: ExistingSlice) => {
    const svc = s.metadata.labels?.[serviceNameLabel];
    if (svc && s.metadata.labels?.[managedByLabel] === mirroringControllerName) queue.add(`${s.metadata.namespace}/${svc}`);
  };
  slices.on('update', (_o, s) => sliceOwner(s)).on('delete', sliceOwner);
  return { stop() { queue.shutdown(); } };
}
