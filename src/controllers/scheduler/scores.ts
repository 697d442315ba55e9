// How well a feasible node suits a pod: least allocated (prefer room to spare) plus balanced
// allocation (prefer CPU and memory used in the same proportion), each 0–100 over CPU and
// memory with the pod's own requests counted in, as the default scheduler profile weighs them.

import type { NodeInfo } from './node-info.ts';
import { allocatable, podRequests } from './requests.ts';
import type { CoreV1Pod } from '../../schema/generated/types.ts';

export function scoreNode(pod: CoreV1Pod, info: NodeInfo): number {
  const alloc = allocatable(info.node);
  const want = podRequests(pod, true);
  const fractions: number[] = [];
  let least = 0;
  for (const r of ['cpu', 'memory']) {
    const cap = alloc.get(r) ?? 0;
    const used = (info.requestedNonZero.get(r) ?? 0) + (want.get(r) ?? 0);
    least += cap > 0 && used <= cap ? ((cap - used) * 100) / cap : 0;
    fractions.push(cap > 0 ? Math.min(1, used / cap) : 1);
  }
  least /= 2;
  const mean = (fractions[0]! + fractions[1]!) / 2;
  const std = Math.sqrt(((fractions[0]! - mean) ** 2 + (fractions[1]! - mean) ** 2) / 2);
  const balanced = (1 - std) * 100;
  return least + balanced;
}
