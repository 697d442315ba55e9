// What the node lifecycle controller decides about one node, as pure functions: whether its
// agent has gone quiet (conditions to Unknown), and which condition taints it should carry.
import type { CoreV1Taint } from '../../schema/generated/types.ts';

export interface Condition { type: string; status: string; reason?: string; message?: string; lastHeartbeatTime?: string; lastTransitionTime?: string }
export type Taint = CoreV1Taint;

/** the conditions the controller turns Unknown when the agent stops reporting */
export const agentConditionTypes = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

export const taintKeys = {
  unreachable: 'node.kubernetes.io/unreachable',
  notReady: 'node.kubernetes.io/not-ready',
  unschedulable: 'node.kubernetes.io/unschedulable',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  networkUnavailable: 'node.kubernetes.io/network-unavailable',
};

const managedKeys = new Set(Object.values(taintKeys));

/** the conditions after the agent stopped reporting: each agent condition Unknown since now */
export function unknownConditions(conditions: Condition[] | undefined, now: string): Condition[] {
  const out = [...(conditions ?? [])];
  for (const type of agentConditionTypes) {
    const i = out.findIndex(c => c.type === type);
    const old = i >= 0 ? out[i]! : undefined;
    if (old?.status === 'Unknown') continue;
    const next: Condition = old
      ? { type, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: old.lastHeartbeatTime, lastTransitionTime: now }
      : { type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: now, lastTransitionTime: now };
    if (i >= 0) out[i] = next; else out.push(next);
  }
  return out;
}

export interface TaintInputs {
  conditions: Condition[] | undefined;
  unschedulable: boolean;
  /** Ready has been False for longer than the grace period */
  notReadyPastGrace: boolean;
}

/** the taints the controller owns that this node should have (key and effect) */
export function wantedTaints(inputs: TaintInputs): Array<{ key: string; effect: string }> {
  const cond = (t: string) => inputs.conditions?.find(c => c.type === t)?.status;
  const out: Array<{ key: string; effect: string }> = [];
  const both = (key: string) => out.push({ key, effect: 'NoSchedule' }, { key, effect: 'NoExecute' });
  const ready = cond('Ready');
  if (ready === 'Unknown') both(taintKeys.unreachable);
  else if (ready === 'False' && inputs.notReadyPastGrace) both(taintKeys.notReady);
  if (inputs.unschedulable) out.push({ key: taintKeys.unschedulable, effect: 'NoSchedule' });
  if (cond('MemoryPressure') === 'True') out.push({ key: taintKeys.memoryPressure, effect: 'NoSchedule' });
  if (cond('DiskPressure') === 'True') out.push({ key: taintKeys.diskPressure, effect: 'NoSchedule' });
  if (cond('PIDPressure') === 'True') out.push({ key: taintKeys.pidPressure, effect: 'NoSchedule' });
  if (cond('NetworkUnavailable') === 'True') out.push({ key: taintKeys.networkUnavailable, effect: 'NoSchedule' });
  return out;
}

/**
 * The node's taints with the controller's own brought to what is wanted: others' taints kept
 * in place, ours kept (with their timeAdded) when still wanted, added when new, dropped when not.
 * Undefined when nothing changes.
 */
export function reconcileTaints(current: Taint[] | undefined, wanted: Array<{ key: string; effect: string }>, now: string): Taint[] | undefined {
  const has = (t: { key: string; effect: string }, list: Array<{ key: string; effect: string }>) => list.some(x => x.key === t.key && x.effect === t.effect);
  const existing = current ?? [];
  const kept = existing.filter(t => !managedKeys.has(t.key) || has(t, wanted));
  const added = wanted.filter(w => !has(w, existing)).map(w => (w.effect === 'NoExecute' ? { ...w, timeAdded: now } : { ...w }));
  if (added.length === 0 && kept.length === existing.length) return undefined;
  return [...kept, ...added];
}
