// Where a DaemonSet's pods belong, as Kubernetes' daemon controller decides it: a node should
// run one when the template's nodeName (if any), nodeSelector and required node affinity match
// it and its NoSchedule/NoExecute taints are tolerated, counting the tolerations every daemon
// pod gets; a pod already there may stay while the node's NoExecute taints are tolerated.
// Daemon pods are pinned to their node by a required node affinity on metadata.name, which the
// scheduler honours. Pure.

import { deepClone } from '../../api/object.ts';
import type { AppsV1DaemonSet, CoreV1Affinity, CoreV1Node, CoreV1Pod, CoreV1PodSpec, CoreV1Toleration } from '../../schema/generated/types.ts';
import { tolerates } from '../node-lifecycle/tolerations.ts';
import { matchesNodeSelectorTerms } from '../scheduler/filters.ts';

export type DaemonSet = AppsV1DaemonSet & { metadata: { name: string; namespace: string; uid?: string } };

/** the tolerations Kubernetes adds to every daemon pod (network-unavailable only with hostNetwork) */
export function daemonTolerations(spec: CoreV1PodSpec): CoreV1Toleration[] {
  const out: CoreV1Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec.hostNetwork) out.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  return out;
}

/** the spec with the daemon tolerations added where the spec lacks an equal one (key, operator, value, effect) */
export function withDaemonTolerations(spec: CoreV1PodSpec): CoreV1PodSpec {
  const tolerations = [...(spec.tolerations ?? [])];
  for (const t of daemonTolerations(spec)) {
    const same = tolerations.findIndex(x => x.key === t.key && x.effect === t.effect);
    if (same >= 0) tolerations[same] = t;
    else tolerations.push(t);
  }
  return { ...spec, tolerations };
}

/** the affinity pinning a pod to one node: every required term replaced by metadata.name In [node] */
export function pinnedToNode(affinity: CoreV1Affinity | undefined, node: string): CoreV1Affinity {
  const a = deepClone(affinity ?? {});
  const na = a.nodeAffinity ??= {};
  na.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] };
  return a;
}

/** the node a daemon pod runs on, or is pinned to before the scheduler binds it */
export function targetNode(pod: CoreV1Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}

export interface Placement { shouldRun: boolean; shouldContinueRunning: boolean }

export function nodeShouldRunDaemonPod(node: CoreV1Node, ds: DaemonSet): Placement {
  const spec = withDaemonTolerations(ds.spec?.template?.spec ?? { containers: [] });
  const name = node.metadata?.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  const labels = node.metadata?.labels ?? {};
  const selectorOk = Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!selectorOk || (terms && !matchesNodeSelectorTerms(node, terms))) return { shouldRun: false, shouldContinueRunning: false };
  const untolerated = (effects: string[]) => (node.spec?.taints ?? []).some(taint => effects.includes(taint.effect) && !(spec.tolerations ?? []).some(t => tolerates(t, taint)));
  if (!untolerated(['NoSchedule', 'NoExecute'])) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated(['NoExecute']) };
}
