// The defaults of flowcontrol.apiserver.k8s.io/v1 as the Go scheme applies them when it decodes
// a FlowSchema or PriorityLevelConfiguration. The config producer compares a stored spec with
// the bootstrap one after these, so a spec a user left to its defaults counts as unchanged.

import type { FlowcontrolV1FlowSchemaSpec, FlowcontrolV1PriorityLevelConfigurationSpec } from '../../schema/generated/types.ts';

export const defaultMatchingPrecedence = 1000;
export const defaultNominalConcurrencyShares = 30;
export const defaultQueuing = { queues: 64, handSize: 8, queueLengthLimit: 50 } as const;

interface WithSpec<S> { spec?: S }

/** matchingPrecedence 0 or unset is 1000 */
export function defaultFlowSchema(obj: WithSpec<FlowcontrolV1FlowSchemaSpec>): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object') return;
  if (!spec.matchingPrecedence) spec.matchingPrecedence = defaultMatchingPrecedence;
}

/**
 * limited: nominalConcurrencyShares absent is 30 (an explicit 0 stays: v1 allows a level that
 * only borrows), lendablePercent absent is 0, queuing's zero fields 64 queues, hand 8, length 50;
 * exempt: both shares and lendablePercent absent are 0
 */
export function defaultPriorityLevel(obj: WithSpec<FlowcontrolV1PriorityLevelConfigurationSpec>): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object') return;
  const limited = spec.limited;
  if (limited && typeof limited === 'object') {
    limited.nominalConcurrencyShares ??= defaultNominalConcurrencyShares;
    limited.lendablePercent ??= 0;
    const queuing = limited.limitResponse?.queuing;
    if (queuing && typeof queuing === 'object') {
      if (!queuing.handSize) queuing.handSize = defaultQueuing.handSize;
      if (!queuing.queues) queuing.queues = defaultQueuing.queues;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = defaultQueuing.queueLengthLimit;
    }
  }
  const exempt = spec.exempt;
  if (exempt && typeof exempt === 'object') {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}
