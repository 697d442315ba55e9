// The checks a node must pass to take a pod, each answering with the reason Kubernetes gives in
// FailedScheduling when it fails (undefined when it passes), and whether preemption could help.

import { tolerates } from '../node-lifecycle/tolerations.ts';
import { hostPorts, type NodeInfo } from './node-info.ts';
import { allocatable, podRequests } from './requests.ts';
import type { CoreV1Node, CoreV1NodeSelectorRequirement, CoreV1NodeSelectorTerm, CoreV1Pod, CoreV1Taint } from '../../schema/generated/types.ts';

export interface Failure { reason: string; resolvable: boolean }

const unresolvable = (reason: string): Failure => ({ reason, resolvable: false });

export function nodeUnschedulable(pod: CoreV1Pod, info: NodeInfo): Failure | undefined {
  if (!info.node.spec?.unschedulable) return undefined;
  const ok = (pod.spec?.tolerations ?? []).some(t => tolerates(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }));
  return ok ? undefined : unresolvable('node(s) were unschedulable');
}

/** a node whose Ready condition is not True counts as carrying the taint the lifecycle controller gives it */
function effectiveTaints(node: CoreV1Node): CoreV1Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const ready = (node.status?.conditions ?? []).find(c => c.type === 'Ready');
  const key = ready?.status === 'False' ? 'node.kubernetes.io/not-ready' : ready?.status === 'True' ? undefined : ready ? 'node.kubernetes.io/unreachable' : 'node.kubernetes.io/not-ready';
  if (key && !taints.some(t => t.key === key)) taints.push({ key, effect: 'NoSchedule' });
  return taints;
}

export function taintToleration(pod: CoreV1Pod, info: NodeInfo): Failure | undefined {
  for (const taint of effectiveTaints(info.node)) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if ((pod.spec?.tolerations ?? []).some(t => tolerates(t, taint))) continue;
    return unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`);
  }
  return undefined;
}

function matchExpression(values: Record<string, string | undefined>, e: CoreV1NodeSelectorRequirement): boolean {
  const has = Object.prototype.hasOwnProperty.call(values, e.key);
  const v = values[e.key] ?? '';
  switch (e.operator) {
    case 'In': return has && (e.values ?? []).includes(v);
    case 'NotIn': return !has || !(e.values ?? []).includes(v);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    case 'Gt': return has && Number.isInteger(Number(v)) && Number(v) > Number(e.values?.[0]);
    case 'Lt': return has && Number.isInteger(Number(v)) && Number(v) < Number(e.values?.[0]);
    default: return false;
  }
}

/** nodeSelectorTerms are ORed; within a term every expression and field must match */
export function matchesNodeSelectorTerms(node: CoreV1Node, terms: CoreV1NodeSelectorTerm[]): boolean {
  const labels = node.metadata?.labels ?? {};
  const fields = { 'metadata.name': node.metadata?.name };
  return terms.some(t => {
    const exprs = t.matchExpressions ?? [];
    const fs = t.matchFields ?? [];
    if (exprs.length === 0 && fs.length === 0) return false;
    return exprs.every(e => matchExpression(labels, e)) && fs.every(e => matchExpression(fields, e));
  });
}

export function nodeAffinity(pod: CoreV1Pod, info: NodeInfo): Failure | undefined {
  const labels = info.node.metadata?.labels ?? {};
  const selector = pod.spec?.nodeSelector ?? {};
  const selectorOk = Object.entries(selector).every(([k, v]) => labels[k] === v);
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const affinityOk = !terms || matchesNodeSelectorTerms(info.node, terms);
  return selectorOk && affinityOk ? undefined : unresolvable("node(s) didn't match Pod's node affinity/selector");
}

/** every resource that does not fit gives its own reason, as Kubernetes lists them */
export function resourcesFit(pod: CoreV1Pod, info: NodeInfo): Failure[] {
  const out: Failure[] = [];
  const alloc = allocatable(info.node);
  if (info.pods + 1 > (alloc.get('pods') ?? 110)) out.push({ reason: 'Too many pods', resolvable: true });
  for (const [k, want] of podRequests(pod)) {
    if (want <= 0) continue;
    if ((info.requested.get(k) ?? 0) + want > (alloc.get(k) ?? 0)) out.push({ reason: `Insufficient ${k}`, resolvable: true });
  }
  return out;
}

export function nodePorts(pod: CoreV1Pod, info: NodeInfo): Failure | undefined {
  for (const want of hostPorts(pod)) {
    const clash = info.ports.some(p => p.port === want.port && p.protocol === want.protocol && (p.hostIP === want.hostIP || p.hostIP === '0.0.0.0' || want.hostIP === '0.0.0.0'));
    if (clash) return { reason: "node(s) didn't have free ports for the requested pod ports", resolvable: true };
  }
  return undefined;
}

/**
 * Why a node cannot take the pod; empty when it can. Checks run in the default profile's
 * order and the first that fails speaks for the node (resources may give several reasons).
 */
export function filterNode(pod: CoreV1Pod, info: NodeInfo): Failure[] {
  for (const check of [nodeUnschedulable, taintToleration, nodeAffinity, nodePorts]) {
    const f = check(pod, info);
    if (f) return [f];
  }
  return resourcesFit(pod, info);
}
