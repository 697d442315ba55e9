// Pods as `kubectl get pods` shows them; STATUS follows Kubernetes' own reasoning over phase,
// init containers, container states and deletion.

import type { Printer } from './types.ts';
import { col, nameColumn } from './types.ts';
import { age, objAge, orNone, spec, status } from './format.ts';
import type { KubeObject } from '../../api/object.ts';

type Obj = Record<string, any>;

function podStatus(pod: KubeObject): { reason: string; ready: number; total: number; restarts: number; lastRestart?: string } {
  const s = status(pod);
  const containers = (spec(pod).containers ?? []) as Obj[];
  let restarts = 0, ready = 0;
  let lastRestart: string | undefined;
  let reason: string = s.reason || s.phase || 'Unknown';
  const note = (cs: Obj) => {
    restarts += cs.restartCount ?? 0;
    const t = cs.lastState?.terminated?.finishedAt;
    if (t && (!lastRestart || t > lastRestart)) lastRestart = t;
  };
  let initializing = false;
  const inits = (s.initContainerStatuses ?? []) as Obj[];
  const initSpecs = (spec(pod).initContainers ?? []) as Obj[];
  inits.forEach((cs, i) => {
    note(cs);
    if (initializing) return;
    const st = cs.state ?? {};
    const sidecar = initSpecs[i]?.restartPolicy === 'Always';
    if (st.terminated && st.terminated.exitCode === 0) return;
    if (sidecar && cs.started) return;
    if (st.terminated) {
      reason = st.terminated.reason ? `Init:${st.terminated.reason}` : st.terminated.signal ? `Init:Signal:${st.terminated.signal}` : `Init:ExitCode:${st.terminated.exitCode}`;
    } else if (st.waiting?.reason && st.waiting.reason !== 'PodInitializing') {
      reason = `Init:${st.waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length || inits.length}`;
    }
    initializing = true;
  });
  const statuses = (s.containerStatuses ?? []) as Obj[];
  if (!initializing) {
    let hasRunning = false;
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      note(cs);
      const st = cs.state ?? {};
      if (st.waiting?.reason) reason = st.waiting.reason;
      else if (st.terminated?.reason) reason = st.terminated.reason;
      else if (st.terminated) reason = st.terminated.signal ? `Signal:${st.terminated.signal}` : `ExitCode:${st.terminated.exitCode}`;
      else if (st.running && cs.ready) { hasRunning = true; ready++; }
    }
    if (reason === 'Completed' && hasRunning) {
      const readyCond = ((s.conditions ?? []) as Obj[]).find(c => c.type === 'Ready');
      reason = readyCond?.status === 'True' ? 'Running' : 'NotReady';
    }
  } else {
    for (const cs of statuses) note(cs);
  }
  if (pod.metadata.deletionTimestamp) reason = s.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return { reason, ready, total: containers.length, restarts, lastRestart };
}

export const podPrinter: Printer = {
  columns: [nameColumn(), col('Ready'), col('Status'), col('Restarts'), col('Age'), col('IP', 'string', 1), col('Node', 'string', 1), col('Nominated Node', 'string', 1), col('Readiness Gates', 'string', 1)],
  cells(pod, now) {
    const st = podStatus(pod);
    const s = status(pod);
    const gates = (spec(pod).readinessGates ?? []) as Obj[];
    let gateCell = '<none>';
    if (gates.length) {
      const conds = (s.conditions ?? []) as Obj[];
      const ok = gates.filter(g => conds.some(c => c.type === g.conditionType && c.status === 'True')).length;
      gateCell = `${ok}/${gates.length}`;
    }
    const restarts = st.lastRestart ? `${st.restarts} (${age(st.lastRestart, now)} ago)` : String(st.restarts);
    return [pod.metadata.name, `${st.ready}/${st.total}`, st.reason, restarts, objAge(pod, now), orNone(s.podIP), orNone(spec(pod).nodeName), orNone(s.nominatedNodeName), gateCell];
  },
};
