// The replicas each metric of an autoscaler proposes and the status it reports, from the pods'
// samples of the resource metrics API (metrics.k8s.io PodMetrics). Resource and ContainerResource
// metrics are computed; Pods, Object and External metrics need metrics APIs this cluster does not
// serve and fail as Kubernetes' controller fails them when those APIs are not registered.

import { canonicalQuantity, parseQuantity } from '../../api/quantity.ts';
import type { AutoscalingV2MetricSpec, AutoscalingV2MetricStatus } from '../../schema/generated/types.ts';
import type { Pod } from '../endpoints/pod-endpoint.ts';
import { resourceReplicas, type CalculatorSettings, type PodMetrics } from './replica-calculator.ts';

/** PodMetrics as metrics.k8s.io serves them */
export interface RawPodMetrics {
  metadata: { name: string };
  timestamp?: string;
  window?: string;
  containers?: Array<{ name: string; usage?: Record<string, string> }>;
}

/** the list of PodMetrics for the target's selector, or why it could not be had */
export type MetricsRead = { items: RawPodMetrics[] } | { error: string };

export interface MetricOutcome {
  /** set when the metric gave a proposal */
  replicas?: number;
  /** how the proposal is named in conditions and events, e.g. "cpu resource utilization (percentage of request)" */
  name?: string;
  status: AutoscalingV2MetricStatus;
  /** set when it failed: the condition reason (FailedGetResourceMetric, ...) and the error */
  failure?: { reason: string; error: string };
}

/** a quantity in milli-units, rounded up as Kubernetes' MilliValue rounds */
export const milli = (q: unknown): number | undefined => {
  const v = parseQuantity(q);
  return v === undefined ? undefined : Math.ceil(Math.round(v * 1e9) / 1e6);
};
const milliQuantity = (m: number) => canonicalQuantity(`${m}m`)!;

function windowMs(w: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(w ?? '');
  return m ? Number(m[1]) * 1000 : 0;
}

/** each pod's usage of the resource (of one container when named); pods lacking a figure are left out */
function podUsage(items: RawPodMetrics[], resource: string, container?: string): PodMetrics | string {
  const out: PodMetrics = new Map();
  for (const m of items) {
    const containers = container ? (m.containers ?? []).filter(c => c.name === container) : m.containers ?? [];
    if (container && !containers.length) return `container ${container} not present in metrics for pod ${m.metadata.name}`;
    let sum = 0;
    let missing = containers.length === 0;
    for (const c of containers) {
      const v = milli(c.usage?.[resource]);
      if (v === undefined) { missing = true; break; }
      sum += v;
    }
    if (!missing) out.set(m.metadata.name, { value: sum, timestamp: Date.parse(m.timestamp ?? '') || 0, windowMs: windowMs(m.window) });
  }
  return out;
}

export function metricReplicas(spec: AutoscalingV2MetricSpec, ctx: { current: number; pods: Pod[]; metrics: MetricsRead; namespace: string; settings: CalculatorSettings }): MetricOutcome {
  const empty: AutoscalingV2MetricStatus = { type: '' };
  if (spec.type === 'Resource' || spec.type === 'ContainerResource') {
    const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
    const resource = src?.name ?? '';
    const container = spec.type === 'ContainerResource' ? spec.containerResource?.container : undefined;
    const reason = spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
    const target = src?.target ?? { type: '' };
    const byValue = target.averageValue !== undefined;
    const fail = (error: string) => ({ status: empty, failure: { reason, error } });
    if (!byValue && target.averageUtilization === undefined) {
      return fail('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
    }
    const what = byValue ? 'usage' : 'utilization';
    const fetchError = 'error' in ctx.metrics ? `unable to fetch metrics from resource metrics API: ${ctx.metrics.error}`
      : ctx.metrics.items.length === 0 ? 'no metrics returned from resource metrics API' : undefined;
    const usage = fetchError ?? podUsage((ctx.metrics as { items: RawPodMetrics[] }).items, resource, container);
    if (typeof usage === 'string') return fail(`failed to get ${resource} ${what}: unable to get metrics for resource ${resource}: ${usage}`);
    let proposal;
    try {
      proposal = resourceReplicas({
        current: ctx.current, pods: ctx.pods, metrics: usage, resource, settings: ctx.settings, milli,
        targetUtilization: target.averageUtilization, targetAverageMilli: byValue ? milli(target.averageValue) : undefined,
      });
    } catch (err) {
      return fail(`failed to get ${resource} ${what}: ${(err as Error).message}`);
    }
    const current = byValue ? { averageValue: milliQuantity(proposal.rawAverage) } : { averageUtilization: proposal.utilization, averageValue: milliQuantity(proposal.rawAverage) };
    const status: AutoscalingV2MetricStatus = spec.type === 'Resource'
      ? { type: 'Resource', resource: { name: resource, current } }
      : { type: 'ContainerResource', containerResource: { name: resource, container: container!, current } };
    const name = byValue ? `${resource} resource` : spec.type === 'Resource' ? `${resource} resource utilization (percentage of request)` : `${resource} container resource utilization (percentage of request)`;
    return { replicas: proposal.replicas, name, status };
  }
  if (spec.type === 'Pods') {
    const metric = spec.pods?.metric?.name ?? '';
    return { status: empty, failure: { reason: 'FailedGetPodsMetric', error: `failed to get pods metric value: unable to get metric ${metric}: no custom metrics API (custom.metrics.k8s.io) registered` } };
  }
  if (spec.type === 'Object') {
    const metric = spec.object?.metric?.name ?? '';
    const obj = spec.object?.describedObject;
    return { status: empty, failure: { reason: 'FailedGetObjectMetric', error: `failed to get object metric value: unable to get metric ${metric}: ${obj?.kind ?? ''} on ${ctx.namespace} ${obj?.name ?? ''}/no custom metrics API (custom.metrics.k8s.io) registered` } };
  }
  if (spec.type === 'External') {
    const metric = spec.external?.metric?.name ?? '';
    return { status: empty, failure: { reason: 'FailedGetExternalMetric', error: `failed to get ${metric} external metric: unable to get external metric ${ctx.namespace}/${metric}/nil: no external metrics API (external.metrics.k8s.io) registered` } };
  }
  return { status: empty, failure: { reason: 'InvalidMetricSourceType', error: `unknown metric source type ${JSON.stringify(spec.type)}` } };
}
