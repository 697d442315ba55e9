// Pods as `kubectl get pods` shows them. STATUS follows Kubernetes' reasoning: the pod's reason
// or phase, scheduling gates, the first init container still at work (Init:1/2, Init:Error,
// Init:CrashLoopBackOff), the last container with a waiting or terminated reason, and
// Terminating while a non-terminal pod is being deleted.

import type { Of, Printer, RowCondition } from './types.ts';
import type { CoreV1Container, CoreV1ContainerStateTerminated, CoreV1ContainerStatus, CoreV1Pod, CoreV1PodStatus, CoreV1PodTemplate } from '../generated/types.ts';
import { col, nameColumn, wideColumn } from './types.ts';
import { age, formatLabels, list, nameOf, objAge, spec, status, timeOf } from './format.ts';

type Pod = Of<CoreV1Pod>;
import { rfc3339 } from '../../api/time.ts';

interface PodSummary {
  reason: string;
  ready: number;
  total: number;
  restarts: number;
  /** when the most recent counted restart ended (ms), if known */
  lastRestart?: number;
}

const isSidecar = (c: CoreV1Container | undefined) => c?.restartPolicy === 'Always';

function terminatedReason(t: CoreV1ContainerStateTerminated, prefix: string): string {
  if (t.reason) return prefix + t.reason;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
}

function conditionTrue(s: Partial<CoreV1PodStatus>, type: string): boolean {
  return list(s.conditions).find(c => c.type === type)?.status === 'True';
}

function summarize(pod: Pod): PodSummary {
  const s = status(pod);
  const sp = spec(pod);
  const phase: string = s.phase ?? '';
  let reason: string = s.reason || phase;
  if (list(s.conditions).some(c => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const initSpecs = new Map(list(sp.initContainers).map(c => [c.name, c]));
  const total = list(sp.containers).length + [...initSpecs.values()].filter(isSidecar).length;
  let ready = 0;
  let restarts = 0, sidecarRestarts = 0;
  let lastRestart: number | undefined, lastSidecarRestart: number | undefined;
  const later = (a: number | undefined, cs: CoreV1ContainerStatus) => {
    const t = timeOf(cs.lastState?.terminated?.finishedAt);
    return t !== undefined && (a === undefined || t > a) ? t : a;
  };

  let initializing = false;
  const inits = list(s.initContainerStatuses);
  for (let i = 0; i < inits.length; i++) {
    const cs = inits[i]!;
    const sidecar = isSidecar(initSpecs.get(cs.name));
    restarts += cs.restartCount ?? 0;
    lastRestart = later(lastRestart, cs);
    if (sidecar) { sidecarRestarts += cs.restartCount ?? 0; lastSidecarRestart = later(lastSidecarRestart, cs); }
    const st = cs.state ?? {};
    if (st.terminated && (st.terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && cs.started === true) { if (cs.ready) ready++; continue; }
    if (st.terminated) reason = terminatedReason(st.terminated, 'Init:');
    else if (st.waiting?.reason && st.waiting.reason !== 'PodInitializing') reason = `Init:${st.waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.size}`;
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(s, 'Initialized')) {
    // only sidecars' restarts count beside the main containers' once initialization is over
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = list(s.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      restarts += cs.restartCount ?? 0;
      lastRestart = later(lastRestart, cs);
      const st = cs.state ?? {};
      if (st.waiting?.reason) reason = st.waiting.reason;
      else if (st.terminated) reason = terminatedReason(st.terminated, '');
      else if (cs.ready && st.running) { hasRunning = true; ready++; }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(s, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp) {
    if (s.reason === 'NodeLost') reason = 'Unknown';
    else if (phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  }
  return { reason, ready, total, restarts, lastRestart };
}

function readinessGates(pod: Pod): string {
  const gates = list(spec(pod).readinessGates);
  if (!gates.length) return '<none>';
  const conds = list(status(pod).conditions);
  const ok = gates.filter(g => conds.find(c => c.type === g.conditionType)?.status === 'True').length;
  return `${ok}/${gates.length}`;
}

const completed: Record<string, RowCondition[]> = {
  Succeeded: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
  Failed: [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }],
};

export const podPrinter: Printer<Pod> = {
  columns: [
    nameColumn(), col('Ready'), col('Status'), col('Restarts'), col('Age'),
    wideColumn('IP'), wideColumn('Node'), wideColumn('Nominated Node'), wideColumn('Readiness Gates'),
  ],
  cells(pod, now) {
    const p = summarize(pod);
    const s = status(pod);
    const restarts = p.restarts !== 0 && p.lastRestart !== undefined
      ? `${p.restarts} (${age(rfc3339(p.lastRestart), now)} ago)`
      : String(p.restarts);
    const ip = list(s.podIPs)[0]?.ip || s.podIP || '<none>';
    return [
      nameOf(pod), `${p.ready}/${p.total}`, p.reason, restarts, objAge(pod, now),
      ip, spec(pod).nodeName || '<none>', s.nominatedNodeName || '<none>', readinessGates(pod),
    ];
  },
  conditions: pod => completed[status(pod).phase ?? ''],
};

export const podTemplatePrinter: Printer<Of<CoreV1PodTemplate>> = {
  columns: [nameColumn(), col('Containers'), col('Images'), col('Pod Labels')],
  cells(t) {
    const template = t.template ?? {};
    const cs = list(template.spec?.containers);
    return [nameOf(t), cs.map(c => c.name).join(','), cs.map(c => c.image).join(','), formatLabels(template.metadata?.labels)];
  },
};
