// The agent's /metrics: the kubelet's basic figures under its names, labels and buckets (the
// node's name, pods with a running sandbox, containers by state, pod start latency, CRI calls)
// and Node's process figures, read by the kubelet's rule as the nodes/metrics subresource.

import { CounterFamily, GaugeFamily, HistogramFamily, exponentialBuckets, type CounterSeries, type HistogramSeries } from '../../api/metrics/families.ts';
import { exposition, type Exposition } from '../../api/metrics/exposition.ts';
import type { Pod, PodStatus } from '../pods/types.ts';
import type { RuntimeSnapshot } from '../pods/runtime-snapshot.ts';
import type { RuntimeObserver } from './runtime-operations.ts';

const podStartBuckets = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
const containerStates = ['created', 'running', 'exited', 'unknown'] as const;
// pods seen pending and not yet running that are remembered (many times a node's pod capacity)
const maxPending = 10_000;

export interface AgentMetrics {
  readonly exposition: Exposition;
  readonly runtimeOperation: RuntimeObserver;
  /** where the running pods and containers are counted from: the runtime's last relist */
  countRuntime(latest: () => RuntimeSnapshot | undefined): void;
  /** each pod status computed here; the first Running one ends the pod's start time */
  podStatus(pod: Pod, status: PodStatus): void;
}

export function createAgentMetrics(nodeName: string, now: () => number = Date.now): AgentMetrics {
  let latest: () => RuntimeSnapshot | undefined = () => undefined;
  const operations = new CounterFamily('kubelet_runtime_operations_total', '[ALPHA] Cumulative number of runtime operations by operation type.', ['operation_type']);
  const durations = new HistogramFamily('kubelet_runtime_operations_duration_seconds', '[ALPHA] Duration in seconds of runtime operations. Broken down by operation type.', ['operation_type'], exponentialBuckets(0.005, 2.5, 14));
  const errors = new CounterFamily('kubelet_runtime_operations_errors_total', '[ALPHA] Cumulative number of runtime operation errors by operation type.', ['operation_type']);
  const podStart = new HistogramFamily('kubelet_pod_start_duration_seconds', '[ALPHA] Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run', [], podStartBuckets);
  const podStartSeries = podStart.with();
  const bySeries = new Map<string, { total: CounterSeries; duration: HistogramSeries; errors: CounterSeries }>();
  // pods seen and not yet running (or ended): when each was first seen
  const firstSeen = new Map<string, number>();

  const runningPods = () => {
    let n = 0;
    for (const p of latest()?.pods.values() ?? []) if (p.sandboxes.some(s => s.state === 'SANDBOX_READY')) n++;
    return [[[], n] as const];
  };
  const containersByState = () => {
    const counts = new Map<string, number>(containerStates.map(s => [s, 0]));
    for (const p of latest()?.pods.values() ?? []) {
      for (const c of p.containers) {
        const state = c.state.replace('CONTAINER_', '').toLowerCase();
        counts.set(state, (counts.get(state) ?? 0) + 1);
      }
    }
    return [...counts].map(([state, n]) => [[state], n] as const);
  };
  const families = [
    new GaugeFamily('kubelet_node_name', "[ALPHA] The node's name. The count is always 1.", ['node'], () => [[[nodeName], 1]]),
    new GaugeFamily('kubelet_running_pods', '[ALPHA] Number of pods that have a running pod sandbox', [], runningPods),
    new GaugeFamily('kubelet_running_containers', '[ALPHA] Number of containers currently running', ['container_state'], containersByState),
    podStart, operations, durations, errors,
  ];

  return {
    exposition: exposition(() => families),
    runtimeOperation(operation, seconds, failed) {
      let s = bySeries.get(operation);
      if (!s) bySeries.set(operation, s = { total: operations.with(operation), duration: durations.with(operation), errors: errors.with(operation) });
      s.total.value++;
      durations.observe(s.duration, seconds);
      if (failed) s.errors.value++;
    },
    countRuntime(source) { latest = source; },
    podStatus(pod, status) {
      const uid = pod.metadata.uid;
      const seen = firstSeen.get(uid);
      const phase = status.phase;
      if (seen === undefined) {
        if (phase !== 'Pending') return;
        firstSeen.set(uid, now());
        // a pod deleted while pending never reports Running: the oldest such entries go first
        if (firstSeen.size > maxPending) firstSeen.delete(firstSeen.keys().next().value!);
        return;
      }
      if (phase === 'Running') podStart.observe(podStartSeries, (now() - seen) / 1000);
      if (phase !== 'Pending') firstSeen.delete(uid);
    },
  };
}
