// Whether a pod tolerates a node's NoExecute taints, and for how long: the taint eviction
// controller's arithmetic, kept pure for tests.

import type { Taint } from './health.ts';
import type { CoreV1Toleration } from '../../schema/generated/types.ts';

export type Toleration = CoreV1Toleration;

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '');
}

/**
 * When a pod must leave a node with these taints: 'never' when it tolerates every NoExecute
 * taint without a time limit (or there are none), otherwise the time in ms. An untolerated
 * taint means now; tolerated ones last the shortest tolerationSeconds among the tolerations
 * used, counted from when the taint was added.
 */
export function evictionTime(taints: Taint[] | undefined, tolerations: Toleration[] | undefined, now: number): number | 'never' {
  let at: number | 'never' = 'never';
  for (const taint of (taints ?? []).filter(x => x.effect === 'NoExecute')) {
    const used = (tolerations ?? []).filter(t => tolerates(t, taint));
    if (used.length === 0) return now;
    const since = taint.timeAdded ? Date.parse(taint.timeAdded) : now;
    for (const t of used) {
      if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
      const until = since + Math.max(0, t.tolerationSeconds) * 1000;
      if (at === 'never' || until < at) at = until;
    }
  }
  return at;
}
