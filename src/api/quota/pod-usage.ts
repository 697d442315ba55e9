// What a pod costs a quota. `count/pods` counts every pod stored; the compute resources and
// `pods` only count pods that still run or may: not Succeeded or Failed, and not deleted longer
// ago than their grace period (a pod stuck terminating on a lost node must not block new ones).
// `cpu` and `memory` are the old names of requests.cpu and requests.memory.

import type { ResourceList } from './resource-list.ts';
import type { ScopedPod } from './scopes.ts';

export interface QuotaPod extends ScopedPod {
  metadata?: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  status?: ScopedPod['status'] & { phase?: string };
}

const fixedNames = new Set([
  'count/pods', 'pods', 'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
]);
const prefixed = ['hugepages-', 'requests.hugepages-', 'limits.hugepages-'];

/** an extended resource: a qualified name outside the kubernetes.io domain (example.com/gpu) */
function isExtended(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash < 0 || name.startsWith('requests.')) return false;
  const domain = name.slice(0, slash);
  return domain !== 'kubernetes.io' && !domain.endsWith('.kubernetes.io');
}

/** the names of a quota's hard list that pods count */
export function podResourceNames(input: string[]): string[] {
  return input.filter(n => fixedNames.has(n) || prefixed.some(p => n.startsWith(p))
    || (n.startsWith('requests.') && isExtended(n.slice('requests.'.length))));
}

/** whether the pod is still charged for compute resources at `now` */
export function chargesCompute(pod: QuotaPod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deleted = pod.metadata?.deletionTimestamp, grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deleted && typeof grace === 'number' && now > Date.parse(deleted) + grace * 1000) return false;
  return true;
}

/** requests and limits as quota names them */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: '1' };
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if (r in requests) out[r] = out[`requests.${r}`] = requests[r]!;
    if (r in limits) out[`limits.${r}`] = limits[r]!;
  }
  for (const [r, q] of Object.entries(requests)) {
    if (r.startsWith('hugepages-')) out[r] = out[`requests.${r}`] = q;
    if (isExtended(r)) out[`requests.${r}`] = q;
  }
  for (const [r, q] of Object.entries(limits)) if (r.startsWith('hugepages-')) out[`limits.${r}`] = q;
  return out;
}

export function podUsage(pod: QuotaPod, now: number, requests: ResourceList, limits: ResourceList): ResourceList {
  if (!chargesCompute(pod, now)) return { 'count/pods': '1' };
  return { 'count/pods': '1', ...computeUsage(requests, limits) };
}

// limiting these obliges every container to state them (kept from before QoS classes existed)
const mustBeStated = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** "must specify limits.cpu for: a,b; requests.memory for: b" when containers leave out what the quota limits */
export function podConstraints(required: string[], pod: QuotaPod & { spec?: { containers?: any[]; initContainers?: any[] } }): string | undefined {
  const needed = required.filter(r => mustBeStated.has(r));
  if (!needed.length) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const stated = computeUsage(c?.resources?.requests ?? {}, c?.resources?.limits ?? {});
    for (const r of needed) {
      if (r in stated) continue;
      if (!missing.has(r)) missing.set(r, new Set());
      missing.get(r)!.add(String(c?.name ?? ''));
    }
  }
  if (!missing.size) return undefined;
  const parts = [...missing.keys()].sort().map(r => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}
