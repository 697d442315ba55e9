// Cluster DNS as one component: informers over Services and EndpointSlices (and pods, when pod
// records are verified) keep the index; the server answers from it over UDP and TCP, and sends
// the rest to the host's resolvers. The same whether `orch up` starts it or `orch dns` does.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { ClusterIndex, serviceView, sliceView } from './cluster-index.ts';
import { Forwarder, type Upstream } from './forwarder.ts';
import type { PodMode } from './lookup.ts';
import { respond, type Responder } from './respond.ts';
import { listenDns } from './server.ts';

export interface ClusterDnsOptions {
  client: Client;
  host: string;
  port: number;
  /** the cluster domain (`cluster.local`) */
  zone: string;
  upstreams: Upstream[];
  ttl?: number;
  podMode?: PodMode;
  log: Logger;
}

export interface ClusterDns {
  host: string;
  port: number;
  index: ClusterIndex;
  /** resolves once Services and EndpointSlices have been listed */
  synced(): Promise<void>;
  stop(): Promise<void>;
}

/** only what the records read, so that the informers hold little per object */
const slim = (o: any) => ({ metadata: { name: o.metadata?.name, namespace: o.metadata?.namespace, labels: o.metadata?.labels, resourceVersion: o.metadata?.resourceVersion }, spec: o.spec, ports: o.ports, endpoints: o.endpoints, status: o.status ? { podIPs: o.status.podIPs } : undefined });

export async function startClusterDns(o: ClusterDnsOptions): Promise<ClusterDns> {
  const index = new ClusterIndex();
  const podMode = o.podMode ?? 'insecure';
  const informers: Informer[] = [];
  const watch = (path: string, set: (obj: any) => void, del: (obj: any) => void) => {
    const inf = createInformer(o.client, path, { log: o.log, transform: slim });
    inf.on('add', set).on('update', (_old, obj) => set(obj)).on('delete', del);
    informers.push(inf);
    return inf;
  };
  watch('/api/v1/services', s => index.setService(serviceView(s)), s => index.deleteService(s.metadata.namespace, s.metadata.name));
  watch('/apis/discovery.k8s.io/v1/endpointslices', s => {
    const v = sliceView(s);
    if (v) index.setSlice(v); else index.deleteSlice(s.metadata.namespace, s.metadata.name);
  }, s => index.deleteSlice(s.metadata.namespace, s.metadata.name));
  if (podMode === 'verified') {
    const ips = (p: any): string[] => (p.status?.podIPs ?? []).map((x: any) => x.ip).filter(Boolean);
    watch('/api/v1/pods', p => index.addPodIPs(p.metadata.namespace, ips(p), 1), p => index.addPodIPs(p.metadata.namespace, ips(p), -1))
      .on('update', (old: any) => index.addPodIPs(old.metadata.namespace, ips(old), -1));
  }
  const forwarder = new Forwarder({ servers: o.upstreams });
  const responder: Responder = {
    zone: {
      index, podMode, zone: o.zone.toLowerCase().replace(/\.$/, ''), ttl: o.ttl ?? 5, localIPs: [o.host],
      upstream: (name, type) => forwarder.resolve(name, type),
    },
    forward: q => forwarder.forward(q),
  };
  const listener = await listenDns(o.host, o.port, (msg, udp) => respond(responder, msg, udp), err => o.log.warn('dns: a query failed', { err: String(err) }));
  responder.zone.localIPs = [listener.host];
  responder.zone.localPort = listener.port;
  for (const inf of informers) inf.start();
  const synced = Promise.all(informers.map(i => i.synced())).then(() => { index.synced = true; });
  o.log.info('cluster DNS listening', { address: `${listener.host}:${listener.port}`, zone: o.zone, upstreams: o.upstreams.map(u => `${u.host}:${u.port}`) });
  return {
    host: listener.host, port: listener.port, index,
    synced: () => synced,
    async stop() {
      for (const inf of informers) inf.stop();
      await listener.close();
    },
  };
}
