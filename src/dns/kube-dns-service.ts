// The `kube-dns` Service in kube-system, as a real cluster has it (kubeadm's ClusterIP 10.96.0.10,
// its labels and port names), without a selector: the DNS server is no pod, so its Endpoints and
// EndpointSlice are kept here, naming the address and port it listens on, the way the API server
// keeps the `kubernetes` Service's. Pods reach it through the ClusterIP the node agent writes
// into their resolv.conf.

import { isIPv6 } from 'node:net';
import type { Client } from '../client/rest.ts';

export const kubeDnsClusterIP = '10.96.0.10';
const ns = 'kube-system';
const name = 'kube-dns';
const labels = { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' };

const isStatus = (err: unknown, code: number) => (err as { code?: number; status?: { code?: number } })?.code === code || (err as { status?: { code?: number } })?.status?.code === code;

async function ensure(client: Client, path: string, want: any, fields: string[]): Promise<void> {
  const current = await client.get(`${path}/${want.metadata.name}`).catch(err => { if (isStatus(err, 404)) return undefined; throw err; });
  if (!current) {
    await client.create(path, want).catch(err => { if (!isStatus(err, 409)) throw err; });
    return;
  }
  if (fields.every(f => JSON.stringify(current[f]) === JSON.stringify(want[f]))) return;
  await client.update(`${path}/${want.metadata.name}`, { ...current, ...Object.fromEntries(fields.map(f => [f, want[f]])) });
}

/** the Service, and its endpoints naming host:port (UDP and TCP) */
export async function ensureKubeDnsService(client: Client, host: string, port: number, clusterIP = kubeDnsClusterIP): Promise<void> {
  const servicePorts = [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: port }, { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: port }];
  const current = await client.get(`/api/v1/namespaces/${ns}/services/${name}`).catch(err => { if (isStatus(err, 404)) return undefined; throw err; });
  if (!current) {
    await client.create(`/api/v1/namespaces/${ns}/services`, {
      apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, labels },
      spec: { clusterIP, ports: servicePorts },
    }).catch(err => { if (!isStatus(err, 409)) throw err; });
  } else if (JSON.stringify(current.spec?.ports?.map((p: any) => p.targetPort)) !== JSON.stringify(servicePorts.map(p => p.targetPort))) {
    await client.update(`/api/v1/namespaces/${ns}/services/${name}`, { ...current, spec: { ...current.spec, ports: servicePorts } });
  }
  const ports = [{ name: 'dns', port, protocol: 'UDP' }, { name: 'dns-tcp', port, protocol: 'TCP' }];
  await ensure(client, `/api/v1/namespaces/${ns}/endpoints`, {
    apiVersion: 'v1', kind: 'Endpoints',
    // kept here, so the mirroring controller leaves it alone
    metadata: { name, namespace: ns, labels: { ...labels, 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: host }], ports }],
  }, ['subsets']);
  await ensure(client, `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name, namespace: ns, labels: { ...labels, 'kubernetes.io/service-name': name } },
    addressType: isIPv6(host) ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [host], conditions: { ready: true } }],
    ports,
  }, ['addressType', 'endpoints', 'ports']);
}
