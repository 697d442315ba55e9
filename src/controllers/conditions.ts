// metav1.Condition lists kept as apimachinery's SetStatusCondition keeps them: a condition whose
// status changes gets a new lastTransitionTime, one whose status stays keeps its time while its
// reason, message and observedGeneration follow; new types are appended.

import type { MetaV1Condition } from '../schema/generated/types.ts';

export type Condition = MetaV1Condition;

/** the list with `c` set; `now` is the transition time of a new or changed status */
export function setStatusCondition(list: Condition[] | undefined, c: Omit<Condition, 'lastTransitionTime'>, now: string): Condition[] {
  const out = [...(list ?? [])];
  const i = out.findIndex(x => x.type === c.type);
  if (i < 0) {
    out.push({ ...c, lastTransitionTime: now });
    return out;
  }
  const old = out[i]!;
  out[i] = { ...old, ...c, lastTransitionTime: old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  return out;
}

/** true when the list holds a condition of the type with this status, reason, message and generation */
export function conditionPresent(list: Condition[] | undefined, c: Omit<Condition, 'lastTransitionTime'>): boolean {
  const x = (list ?? []).find(y => y.type === c.type);
  return !!x && x.status === c.status && x.reason === c.reason && (x.message ?? '') === (c.message ?? '') && x.observedGeneration === c.observedGeneration;
}
