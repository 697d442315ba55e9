// Pods refused while the node is under pressure (pure), as the kubelet refuses them: under
// memory pressure alone, BestEffort pods that do not tolerate the memory-pressure taint; under
// any other pressure, every pod. Critical pods are always admitted.

import { podQosClass } from '../../api/qos.ts';
import type { Pod } from '../pods/types.ts';

export const evictedReason = 'Evicted';
const systemCriticalPriority = 2_000_000_000;

/** static and mirror pods, and pods of system-critical priority: never evicted nor refused */
export function isCriticalPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  if (source && source !== 'api') return true;
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) return true;
  return (pod.spec.priority ?? 0) >= systemCriticalPriority;
}

function toleratesMemoryPressure(pod: Pod): boolean {
  return (pod.spec.tolerations ?? []).some(t => (t.effect ? t.effect === 'NoSchedule' : true)
    && (t.operator === 'Exists' ? !t.key || t.key === 'node.kubernetes.io/memory-pressure' : t.key === 'node.kubernetes.io/memory-pressure' && !t.value));
}

export function pressureAdmission(pod: Pod, conditions: ReadonlySet<string>): { reason: string; message: string } | undefined {
  if (conditions.size === 0 || isCriticalPod(pod)) return undefined;
  const order = ['MemoryPressure', 'DiskPressure', 'PIDPressure'].filter(c => conditions.has(c));
  if (order.length === 1 && order[0] === 'MemoryPressure' && (podQosClass(pod as never) !== 'BestEffort' || toleratesMemoryPressure(pod))) return undefined;
  return { reason: evictedReason, message: `The node had condition: [${order.join(' ')}]. ` };
}
