// What a fresh cluster has before anyone writes: the system namespaces, the `kubernetes`
// service in `default` with its endpoints, and the default StorageClass `standard` behind the
// built-in local-path provisioner (as k3s deploys its local-storage class). Runs at every start
// and creates only what is missing.

import { StatusError } from '../api/status.ts';
import type { KubeObject } from '../api/object.ts';
import { localPathProvisionerName } from '../api/default-storage-class.ts';
import type { Catalog, ResourceInfo } from '../schema/types.ts';
import type { Registry } from '../registry/registry.ts';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

async function ensure(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
  }
}

export async function ensureSystemNamespaces(store: Registry, catalog: Catalog): Promise<void> {
  const ns = catalog.lookup('', 'v1', 'namespaces')!;
  for (const name of systemNamespaces) {
    await ensure(() => store.get(ns, undefined, name).catch(err => {
      if (err instanceof StatusError && err.code === 404) return store.create(ns, undefined, { metadata: { name } });
      throw err;
    }));
  }
}

export async function ensureKubernetesService(store: Registry, catalog: Catalog, port: number): Promise<void> {
  const svc = catalog.lookup('', 'v1', 'services')!;
  await ensure(() => store.get(svc, 'default', 'kubernetes').catch(err => {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    return store.create(svc, 'default', {
      metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }] },
    });
  }));
}

/**
 * The `kubernetes` service's endpoints, which the API server keeps itself (no controller selects
 * pods for it): an Endpoints object marked not to be mirrored, and an EndpointSlice of its own,
 * both naming this server's address and port. Rewritten when a restart moved the port.
 */
export async function ensureKubernetesEndpoints(store: Registry, catalog: Catalog, ip: string, port: number): Promise<void> {
  const ports = [{ name: 'https', port, protocol: 'TCP' }];
  const v6 = ip.includes(':');
  await ensureEqual(store, catalog.lookup('', 'v1', 'endpoints')!, {
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip }], ports }],
  }, ['subsets']);
  const slices = catalog.lookup('discovery.k8s.io', 'v1', 'endpointslices');
  if (slices) {
    await ensureEqual(store, slices, {
      metadata: { name: 'kubernetes', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: v6 ? 'IPv6' : 'IPv4',
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports,
    }, ['addressType', 'endpoints', 'ports']);
  }
}

/**
 * servers sharing an etcd that start at once each write their own address: the one whose update
 * lost reads the winner's object and writes again, rather than failing its start on the 409
 */
async function ensureEqual(store: Registry, info: ResourceInfo, want: KubeObject, fields: string[]): Promise<void> {
  const name = want.metadata.name!;
  for (let attempt = 1; ; attempt++) {
    let current: KubeObject | undefined;
    try { current = await store.get(info, 'default', name); } catch (err) { if (!(err instanceof StatusError && err.code === 404)) throw err; }
    if (!current) return ensure(() => store.create(info, 'default', want));
    const same = fields.every(f => JSON.stringify(current![f]) === JSON.stringify(want[f]));
    if (same) return;
    try {
      return void await store.update(info, 'default', name, { ...current, ...Object.fromEntries(fields.map(f => [f, want[f]])) });
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'Conflict') || attempt === 5) throw err;
    }
  }
}

export async function ensureDefaultStorageClass(store: Registry, catalog: Catalog): Promise<void> {
  const sc = catalog.lookup('storage.k8s.io', 'v1', 'storageclasses');
  if (!sc) return;
  await ensure(() => store.get(sc, undefined, 'standard').catch(err => {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    return store.create(sc, undefined, {
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: localPathProvisionerName,
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    } as never);
  }));
}
