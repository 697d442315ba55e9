// The FailedScheduling message: how many nodes failed for each reason, reasons sorted, then
// what preemption would make of it (orch does not preempt, so no victims are ever found). A
// rejection before any node is looked at (PreFilter) is said once, and preemption cannot help it.

import type { Failure } from './filters.ts';

/** preFilter: why the pod fits no node at all (VolumeBinding's PreFilter), said once instead of per node */
export function failureMessage(total: number, perNode: Failure[][], preFilter?: string): string {
  if (total === 0) return 'no nodes available to schedule pods';
  if (preFilter) return `0/${total} nodes are available: ${preFilter}. preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`;
  const counts = new Map<string, number>();
  let resolvable = 0;
  for (const fails of perNode) {
    for (const f of fails) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
    if (fails.every(f => f.resolvable)) resolvable++;
  }
  const reasons = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  const preemption = [
    ...(resolvable ? [`${resolvable} No preemption victims found for incoming pod`] : []),
    ...(perNode.length - resolvable ? [`${perNode.length - resolvable} Preemption is not helpful for scheduling`] : []),
  ].sort();
  return `0/${total} nodes are available: ${reasons.join(', ')}. preemption: 0/${total} nodes are available: ${preemption.join(', ')}.`;
}
