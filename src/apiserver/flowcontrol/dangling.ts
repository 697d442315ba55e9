// A FlowSchema's `Dangling` condition, as kube-apiserver's APF controller keeps it: True with
// reason NotFound while the priority level it names does not exist (or is too broken to use),
// False with reason Found otherwise; written only when status, reason or message differ, by
// server-side apply of that one condition to the status subresource.
// kube-apiserver writes no PriorityLevelConfiguration conditions, so neither does orch.

import { rfc3339 } from '../../api/time.ts';
import type { FlowcontrolV1FlowSchema as FlowSchema, FlowcontrolV1FlowSchemaCondition as Condition } from '../../schema/generated/types.ts';

export const danglingType = 'Dangling';
/** the field manager kube-apiserver's APF controller writes status as */
export const configConsumerManager = 'api-priority-and-fairness-config-consumer-v1';

export function desiredDangling(levelName: string, found: boolean): Required<Omit<Condition, 'lastTransitionTime'>> {
  return found
    ? { type: danglingType, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} and it exists` }
    : { type: danglingType, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(levelName)} but there is no such object` };
}

/** the condition to write, with its transition time, or undefined when the stored one is right */
export function danglingUpdate(fs: Pick<FlowSchema, 'spec' | 'status'>, found: boolean, now: Date): Condition | undefined {
  const want = desiredDangling(fs.spec?.priorityLevelConfiguration?.name ?? '', found);
  const have = fs.status?.conditions?.find(c => c.type === danglingType);
  if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) return undefined;
  return { ...want, lastTransitionTime: rfc3339(now) };
}

/**
 * What the controller applies to the status subresource: the one condition (conditions are a
 * map keyed by type, so the others stay as they are)
 */
export function danglingApplyConfiguration(name: string, condition: Condition): { apiVersion: string; kind: string; metadata: { name: string }; status: { conditions: Condition[] } } {
  return { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name }, status: { conditions: [condition] } };
}
