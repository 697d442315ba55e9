// Pods and services as the API serves them, for the endpoints controllers' decisions.

import type { Pod, Service } from '../../../../src/controllers/endpoints/pod-endpoint.ts';

export function pod(name: string, opts: { ip?: string; ready?: boolean; labels?: Record<string, string>; node?: string; deleting?: boolean; phase?: string; ports?: Array<{ name?: string; containerPort: number; protocol?: string }>; hostname?: string; subdomain?: string; readySince?: string } = {}): Pod {
  return {
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels: opts.labels ?? { app: 'web' }, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: opts.node ?? 'n1', hostname: opts.hostname, subdomain: opts.subdomain, containers: [{ name: 'c', image: 'x', ports: opts.ports }] },
    status: {
      phase: opts.phase ?? 'Running',
      podIP: opts.ip, podIPs: opts.ip ? [{ ip: opts.ip }] : undefined,
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: opts.readySince ?? '2026-01-01T00:00:10Z' }],
    },
  };
}

export function service(name: string, spec: Partial<NonNullable<Service['spec']>> = {}, labels?: Record<string, string>): Service {
  return {
    metadata: { name, namespace: 'ns', uid: `uid-svc-${name}`, labels, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { selector: { app: 'web' }, clusterIP: '10.96.0.10', ipFamilies: ['IPv4'], ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
  };
}
