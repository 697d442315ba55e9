// The node conditions an agent reports, worded as the kubelet words them, with heartbeat and
// transition times: every report refreshes lastHeartbeatTime; lastTransitionTime moves only
// when a condition's status changes.

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

export type ObservedCondition = Pick<NodeCondition, 'type' | 'status' | 'reason' | 'message'>;

export interface Health {
  /** reasons the node cannot run pods (runtime down, PLEG stalled, ...); empty when ready */
  notReadyReasons: string[];
  /** whether the node's network is configured (an address to reach pods on) */
  networkReady: boolean;
}

/** the pressure conditions, from the ones the eviction manager reports True */
export function pressureConditions(pressure: ReadonlySet<string>): ObservedCondition[] {
  return [
    pressure.has('MemoryPressure')
      ? { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' }
      : { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    pressure.has('DiskPressure')
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }
      : { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    pressure.has('PIDPressure')
      ? { type: 'PIDPressure', status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' }
      : { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  ];
}

export function observedConditions(pressure: ReadonlySet<string>, health: Health): ObservedCondition[] {
  const ready: ObservedCondition = health.notReadyReasons.length === 0
    ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
    : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: health.notReadyReasons.join(', ') };
  const network: ObservedCondition = health.networkReady
    ? { type: 'NetworkUnavailable', status: 'False', reason: 'NetworkReady', message: 'node has a configured network address' }
    : { type: 'NetworkUnavailable', status: 'True', reason: 'NoNetworkAddress', message: 'node has no network address other than loopback' };
  return [...pressureConditions(pressure), ready, network];
}

/**
 * The conditions to report now: observed ones stamped with this heartbeat, keeping the previous
 * transition time where the status did not change. Conditions other writers own (types we do
 * not observe) are kept as they are.
 */
export function stampConditions(previous: NodeCondition[] | undefined, observed: ObservedCondition[], now: string): NodeCondition[] {
  const before = new Map((previous ?? []).map(c => [c.type, c]));
  const out: NodeCondition[] = observed.map(c => {
    const old = before.get(c.type);
    return { ...c, lastHeartbeatTime: now, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now };
  });
  const ours = new Set(observed.map(c => c.type));
  for (const c of previous ?? []) if (!ours.has(c.type)) out.push(c);
  return out;
}

/** whether two condition lists differ in anything but heartbeat times */
export function conditionsChanged(a: NodeCondition[] | undefined, b: NodeCondition[]): boolean {
  const key = (cs: NodeCondition[] | undefined) => JSON.stringify((cs ?? []).map(c => [c.type, c.status, c.reason, c.message, c.lastTransitionTime]).sort());
  return key(a) !== key(b);
}
