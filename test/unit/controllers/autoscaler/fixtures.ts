// Pods with CPU and memory requests, their metrics.k8s.io samples, and autoscalers, for the HPA's decisions.

import type { Pod } from '../../../../src/controllers/endpoints/pod-endpoint.ts';
import type { Hpa } from '../../../../src/controllers/autoscaler/plan.ts';
import type { RawPodMetrics } from '../../../../src/controllers/autoscaler/metric-replicas.ts';

export const t0 = Date.parse('2026-01-01T01:00:00Z');

export function hpaPod(name: string, opts: { cpu?: string; memory?: string; phase?: string; ready?: boolean; started?: number; readySince?: number } = {}): Pod {
  const started = opts.started ?? t0 - 3_600_000;
  return {
    metadata: { name, namespace: 'ns', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { ...(opts.cpu ? { cpu: opts.cpu } : {}), ...(opts.memory ? { memory: opts.memory } : {}) } } }] },
    status: {
      phase: opts.phase ?? 'Running',
      startTime: new Date(started).toISOString(),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: new Date(opts.readySince ?? started + 5000).toISOString() }],
    },
  };
}

export function sample(name: string, usage: Record<string, string>, at = t0 - 10_000): RawPodMetrics {
  return { metadata: { name }, timestamp: new Date(at).toISOString(), window: '15s', containers: [{ name: 'c', usage }] };
}

export function autoscaler(spec: Partial<NonNullable<Hpa['spec']>> = {}, status?: Hpa['status']): Hpa {
  return {
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      ...spec,
    },
    status,
  };
}
