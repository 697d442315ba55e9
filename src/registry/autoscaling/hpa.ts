// HorizontalPodAutoscalers (stored as autoscaling/v2): Kubernetes' defaults, so that what the
// autoscaler controller and `kubectl describe hpa` read is what a real cluster holds — one
// minimum replica, a CPU utilization target of 80% when no metric is named (autoscaling/v1's
// default too, which arrives here converted), and a behavior's unset parts filled in.

import { strategyWith } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { AutoscalingV2HPAScalingRules, AutoscalingV2HorizontalPodAutoscalerSpec } from '../../schema/generated/types.ts';

type Hpa = KubeObject & { spec?: AutoscalingV2HorizontalPodAutoscalerSpec & { targetCPUUtilizationPercentage?: number } };

function fillRules(r: AutoscalingV2HPAScalingRules | undefined, up: boolean): AutoscalingV2HPAScalingRules {
  const out: AutoscalingV2HPAScalingRules = { ...r };
  if (up) out.stabilizationWindowSeconds ??= 0;
  out.selectPolicy ??= 'Max';
  out.policies ??= up
    ? [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }]
    : [{ type: 'Percent', value: 100, periodSeconds: 15 }];
  return out;
}

/** defaults in the version the request was written in (the store converts afterwards) */
export function defaultAutoscalerSpec(obj: Hpa): void {
  const s = obj.spec;
  if (!s) return;
  s.minReplicas ??= 1;
  if (obj.apiVersion === 'autoscaling/v1') {
    s.targetCPUUtilizationPercentage ??= 80;
    return;
  }
  if (!s.metrics?.length) s.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  if (s.behavior) s.behavior = { scaleUp: fillRules(s.behavior.scaleUp, true), scaleDown: fillRules(s.behavior.scaleDown, false) };
}

export const autoscalerStrategy = strategyWith<Hpa>({
  prepareForCreate: defaultAutoscalerSpec,
  prepareForUpdate: obj => defaultAutoscalerSpec(obj),
});
