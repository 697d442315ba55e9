// What the cluster says of an APIService's Service: the Service, its Endpoints and its
// EndpointSlices, read from the watch cache, for both the availability check and each request.

import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { ServiceRef } from './availability.ts';

export interface ServiceState {
  service?: KubeObject;
  endpoints?: KubeObject;
  slices: KubeObject[];
}

async function getOrNone(store: Registry, catalog: Catalog, group: string, resource: string, ns: string, name: string): Promise<KubeObject | undefined> {
  const info = catalog.lookup(group, 'v1', resource);
  if (!info) return undefined;
  try { return await store.get(info, ns, name, undefined, true); } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

export async function readServiceState(store: Registry, catalog: Catalog, ref: ServiceRef): Promise<ServiceState> {
  const service = await getOrNone(store, catalog, '', 'services', ref.namespace, ref.name);
  if (!service) return { slices: [] };
  const endpoints = await getOrNone(store, catalog, '', 'endpoints', ref.namespace, ref.name);
  const sliceInfo = catalog.lookup('discovery.k8s.io', 'v1', 'endpointslices');
  const slices = sliceInfo
    ? (await store.list(sliceInfo, ref.namespace, { filter: o => o.metadata.labels?.['kubernetes.io/service-name'] === ref.name })).items
    : [];
  return { service, endpoints, slices };
}

/** changes whenever anything the check reads changes */
export function fingerprint(state: ServiceState): string {
  const rv = (o?: KubeObject) => o?.metadata.resourceVersion ?? '-';
  return [rv(state.service), rv(state.endpoints), ...state.slices.map(rv)].join(',');
}
