// HorizontalPodAutoscaler conditions as the HPA controller keeps them: a condition keeps its
// place in the list; its lastTransitionTime moves only when its status changes.

import type { AutoscalingV2HorizontalPodAutoscalerCondition } from '../../schema/generated/types.ts';

export type HpaCondition = AutoscalingV2HorizontalPodAutoscalerCondition;

export function setHpaCondition(list: HpaCondition[], type: string, status: string, reason: string, message: string, now: string): HpaCondition[] {
  const out = list.map(c => ({ ...c }));
  let c = out.find(x => x.type === type);
  if (!c) out.push(c = { type, status: '' });
  if (c.status !== status) c.lastTransitionTime = now;
  c.status = status;
  c.reason = reason;
  c.message = message;
  return out;
}
