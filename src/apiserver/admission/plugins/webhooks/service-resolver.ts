// Where a `service` clientConfig is dialled. orch has no service proxy, so, as kube-apiserver
// does with --enable-aggregator-routing, the service is resolved to one ready endpoint through
// its EndpointSlices (the service port by number, then the slices' port of the same name),
// read from the registry's watch cache. The TLS server name stays `<name>.<namespace>.svc`.

import type { KubeObject } from '../../../../api/object.ts';
import { StatusError } from '../../../../api/status.ts';
import type { Registry } from '../../../../registry/registry.ts';
import { candidates } from '../../../../registry/subresources/services-proxy.ts';
import type { Catalog } from '../../../../schema/types.ts';

export interface Endpoint { host: string; port: number }

/** why a service cannot be dialled, worded as kube-apiserver's endpoint resolver words it */
export class ResolveError extends Error {}

interface ServiceParts { spec?: { ports?: Array<{ name?: string; port?: number }> } }

export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<Endpoint>;

export function endpointSliceResolver(registry: Registry, catalog: Catalog, random: () => number = Math.random): ServiceResolver {
  return async (namespace, name, port) => {
    const services = catalog.lookup('', 'v1', 'services')!;
    const slicesInfo = catalog.lookup('discovery.k8s.io', 'v1', 'endpointslices')!;
    const svc = await registry.get(services, namespace, name, undefined, true).catch(err => {
      if (err instanceof StatusError && err.code === 404) throw new ResolveError(`service "${name}" not found`);
      throw err;
    }) as KubeObject & ServiceParts;
    const svcPort = (svc.spec?.ports ?? []).find(p => p.port === port);
    if (!svcPort) throw new ResolveError(`no service port ${port} found for service "${name}"`);
    const slices = (await registry.list(slicesInfo, namespace, { filter: s => s.metadata.labels?.['kubernetes.io/service-name'] === name })).items;
    const found = candidates(slices as never, svcPort.name ?? '', random)[0];
    if (!found) throw new ResolveError(`no endpoints available for service "${name}"`);
    return { host: found.host, port: found.port };
  };
}
