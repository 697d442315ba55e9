// A Job's podFailurePolicy and successPolicy, matched as the job controller matches them: the
// first rule a failed pod meets decides whether it fails the job (with Kubernetes' message),
// fails its index, is ignored or is counted; a success rule is met by enough succeeded indexes.

import type { BatchV1PodFailurePolicy, BatchV1SuccessPolicy, CoreV1ContainerStatus } from '../../schema/generated/types.ts';
import { parseIndexes, totalIndexes, type Intervals } from './indexes.ts';
import type { Pod } from './pods.ts';

export type FailureAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface FailureMatch {
  /** the job's failure message, for a FailJob rule */
  failJobMessage?: string;
  /** whether the failure counts towards backoffLimit (and backoffLimitPerIndex) */
  countFailed: boolean;
  action?: FailureAction;
}

type ExitCodes = NonNullable<BatchV1PodFailurePolicy['rules'][number]['onExitCodes']>;

function exitCodeMatches(code: number, req: ExitCodes): boolean {
  if (req.operator === 'In') return req.values.includes(code);
  if (req.operator === 'NotIn') return !req.values.includes(code);
  return false;
}

function matchingContainer(statuses: CoreV1ContainerStatus[] | undefined, req: ExitCodes): CoreV1ContainerStatus | undefined {
  return (statuses ?? []).find(s => {
    const code = s.state?.terminated?.exitCode;
    return code !== undefined && code !== 0 && (!req.containerName || req.containerName === s.name) && exitCodeMatches(code, req);
  });
}

export function matchPodFailurePolicy(policy: BatchV1PodFailurePolicy | undefined, pod: Pod): FailureMatch {
  if (!policy) return { countFailed: true };
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    const action = rule.action as FailureAction;
    let failJobMessage: string | undefined;
    if (rule.onExitCodes) {
      const c = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes) ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
      if (!c) continue;
      failJobMessage = `Container ${c.name} for pod ${pod.metadata.namespace}/${pod.metadata.name} failed with exit code ${c.state!.terminated!.exitCode} matching ${action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const cond = (pod.status?.conditions ?? []).find(pc => rule.onPodConditions!.some(p => p.type === pc.type && (p.status ?? 'True') === pc.status));
      if (!cond) continue;
      failJobMessage = `Pod ${pod.metadata.namespace}/${pod.metadata.name} has condition ${cond.type} matching ${action} rule at index ${index}`;
    } else {
      continue;
    }
    switch (action) {
      case 'Ignore': return { countFailed: false, action };
      case 'FailIndex': return { countFailed: true, action };
      case 'Count': return { countFailed: true, action };
      case 'FailJob': return { failJobMessage, countFailed: true, action };
    }
  }
  return { countFailed: true };
}

/** how many of the rule's indexes have succeeded */
function overlap(rule: Intervals, succeeded: Intervals): number {
  let n = 0;
  for (const r of rule) for (const s of succeeded) n += Math.max(0, Math.min(r.last, s.last) - Math.max(r.first, s.first) + 1);
  return n;
}

/** "Matched rules at index N" for the first rule met, or undefined */
export function matchSuccessPolicy(policy: BatchV1SuccessPolicy | undefined, completions: number, succeeded: Intervals): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      const have = overlap(required, succeeded);
      if (have === totalIndexes(required) || (rule.succeededCount !== undefined && have >= rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && totalIndexes(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
