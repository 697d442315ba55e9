// Services and EndpointSlices as the API serves them, for the proxy's tests.

export function service(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}, namespace = 'default') {
  return { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { type: 'ClusterIP', ...spec }, ...extra };
}

export interface Ep { ip: string; node?: string; ready?: boolean; serving?: boolean; terminating?: boolean }

export function slice(serviceName: string, eps: Ep[], ports: Array<{ name?: string; port: number; protocol?: string }>, opts: { namespace?: string; addressType?: string; name?: string } = {}) {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { namespace: opts.namespace ?? 'default', name: opts.name ?? `${serviceName}-abc`, labels: { 'kubernetes.io/service-name': serviceName } },
    addressType: opts.addressType ?? 'IPv4',
    ports: ports.map(p => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP' })),
    endpoints: eps.map(e => ({
      addresses: [e.ip], nodeName: e.node ?? 'node-a',
      conditions: { ready: e.ready ?? true, serving: e.serving ?? e.ready ?? true, terminating: e.terminating ?? false },
    })),
  };
}

export const bySvc = (...slices: any[]) => {
  const m = new Map<string, any[]>();
  for (const s of slices) {
    const key = `${s.metadata.namespace}/${s.metadata.labels['kubernetes.io/service-name']}`;
    m.set(key, [...(m.get(key) ?? []), s]);
  }
  return m;
};
