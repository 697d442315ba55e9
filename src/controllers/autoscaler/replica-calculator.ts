// How many replicas a resource metric asks for, as the HPA's replica calculator works it out:
// pods are grouped (pending and, for CPU, not-yet-ready pods ignored; pods without a sample
// missing), the usage ratio to the target is taken over the ready ones, and a ratio within the
// tolerance keeps the current count. When pods were ignored or missing, the ratio is worked out
// again as if missing pods used all of their request on a scale-down and none on a scale-up, and
// a change of direction that this causes cancels the change. Errors carry Kubernetes' wording.

import type { Pod } from '../endpoints/pod-endpoint.ts';

/** a pod's summed usage in milli-units, and when and over what window it was measured */
export interface PodMetric { value: number; timestamp: number; windowMs: number }
export type PodMetrics = Map<string, PodMetric>;

export interface Tolerances { up: number; down: number }
export const defaultTolerance = 0.1;

export interface CalculatorSettings {
  tolerance: Tolerances;
  /** --horizontal-pod-autoscaler-cpu-initialization-period (5 min) */
  cpuInitializationMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay (30 s) */
  initialReadinessDelayMs: number;
  now: number;
}

export const defaultCalculatorSettings = { cpuInitializationMs: 5 * 60_000, initialReadinessDelayMs: 30_000 };

const within = (ratio: number, t: Tolerances) => ratio >= 1 - t.down && ratio <= 1 + t.up;

/** pods counted (ready), ignored (pending, or CPU samples from pods still starting) and missing a sample */
export function groupPods(pods: Pod[], metrics: PodMetrics, resource: string, s: Pick<CalculatorSettings, 'cpuInitializationMs' | 'initialReadinessDelayMs' | 'now'>): { ready: number; ignored: Set<string>; missing: Set<string> } {
  const ignored = new Set<string>(), missing = new Set<string>();
  let ready = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') continue;
    if (pod.status?.phase === 'Pending') { ignored.add(pod.metadata.name); continue; }
    const metric = metrics.get(pod.metadata.name);
    if (!metric) { missing.add(pod.metadata.name); continue; }
    if (resource === 'cpu') {
      const cond = pod.status?.conditions?.find(c => c.type === 'Ready');
      const start = pod.status?.startTime ? Date.parse(pod.status.startTime) : undefined;
      let ignore: boolean;
      if (!cond || start === undefined) ignore = true;
      else {
        const transition = Date.parse(cond.lastTransitionTime ?? '') || 0;
        if (start + s.cpuInitializationMs > s.now) ignore = cond.status === 'False' || metric.timestamp < transition + metric.windowMs;
        else ignore = cond.status === 'False' && start + s.initialReadinessDelayMs > transition;
      }
      if (ignore) { ignored.add(pod.metadata.name); continue; }
    }
    ready++;
  }
  return { ready, ignored, missing };
}

/** each pod's summed container requests of the resource, in milli-units */
export function podRequests(pods: Pod[], resource: string, milli: (q: unknown) => number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter(c => c.restartPolicy === 'Always')];
    for (const c of containers) {
      const q = milli(c.resources?.requests?.[resource]);
      if (q === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
      sum += q;
    }
    out.set(pod.metadata.name, sum);
  }
  return out;
}

/** usage over requests of the pods with both, against the target percentage */
export function utilizationRatio(metrics: PodMetrics, requests: Map<string, number>, target: number): { ratio: number; utilization: number; rawAverage: number } {
  let used = 0, requested = 0, n = 0;
  for (const [name, m] of metrics) {
    const r = requests.get(name);
    if (r === undefined) continue;
    used += m.value; requested += r; n++;
  }
  if (requested === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((used * 100) / requested);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(used / n) };
}

function averageRatio(metrics: PodMetrics, target: number): { ratio: number; average: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const average = Math.trunc(total / metrics.size);
  return { ratio: average / target, average };
}

export interface Proposal { replicas: number; utilization?: number; rawAverage: number }

/**
 * Replicas for a target utilization (percent of request) or, when `targetAverageMilli` is given
 * instead, for a target average value; `pods` are those the target's selector selects.
 */
export function resourceReplicas(args: {
  current: number; pods: Pod[]; metrics: PodMetrics; resource: string; settings: CalculatorSettings;
  targetUtilization?: number; targetAverageMilli?: number; milli: (q: unknown) => number | undefined;
}): Proposal {
  const { current, pods, resource, settings } = args;
  if (!pods.length) throw new Error('no pods returned by selector while calculating replica count');
  const metrics = new Map(args.metrics);
  const { ready, ignored, missing } = groupPods(pods, metrics, resource, settings);
  for (const name of ignored) metrics.delete(name);
  const byValue = args.targetAverageMilli !== undefined;
  const requests = byValue ? undefined : podRequests(pods, resource, args.milli);
  if (!metrics.size) throw new Error('did not receive metrics for any ready pods');

  const measure = (m: PodMetrics) => {
    if (byValue) { const r = averageRatio(m, args.targetAverageMilli!); return { ratio: r.ratio, utilization: undefined, rawAverage: r.average }; }
    return utilizationRatio(m, requests!, args.targetUtilization!);
  };
  const first = measure(metrics);
  const keep: Proposal = { replicas: current, utilization: first.utilization, rawAverage: first.rawAverage };
  const rebalanceIgnored = ignored.size > 0 && first.ratio > 1;
  if (!rebalanceIgnored && !missing.size) {
    if (within(first.ratio, settings.tolerance)) return keep;
    return { ...keep, replicas: Math.ceil(first.ratio * ready) };
  }
  if (missing.size) {
    for (const name of missing) {
      // a scale-down counts missing pods at their whole request (or the target), a scale-up at nothing
      const full = byValue ? args.targetAverageMilli! : requests!.get(name) ?? 0;
      if (first.ratio < 1) metrics.set(name, { value: full, timestamp: 0, windowMs: 0 });
      else if (first.ratio > 1 || byValue) metrics.set(name, { value: 0, timestamp: 0, windowMs: 0 });
    }
  }
  if (rebalanceIgnored) for (const name of ignored) metrics.set(name, { value: 0, timestamp: 0, windowMs: 0 });
  const again = measure(metrics).ratio;
  if (within(again, settings.tolerance) || (first.ratio < 1 && again > 1) || (first.ratio > 1 && again < 1)) return keep;
  const replicas = Math.ceil(again * metrics.size);
  if (!byValue && ((again < 1 && replicas > current) || (again > 1 && replicas < current))) return keep;
  return { ...keep, replicas };
}
