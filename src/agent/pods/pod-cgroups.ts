// Where a pod's cgroup sits and what it is limited to, as the kubelet lays them out with
// cgroupsPerQOS: Guaranteed pods directly under `kubepods`, the others under
// `kubepods/burstable` or `kubepods/besteffort`, each pod in `pod<uid>`; the sandbox and every
// container of the pod go below it (the runtime is given it as the sandbox's cgroup parent).
// The pod cgroup gets the sum of its containers' CPU requests as shares, and a CPU quota and a
// memory limit only when every container sets that limit, as ResourceConfigForPod computes them.
// Pure: the files are written by pod-cgroup-files.ts.

import { computeQosClass, type QosClass } from '../../api/qos.ts';
import { parseQuantity } from '../../api/quantity.ts';
import type { Container, Pod } from './types.ts';

export interface PodCgroupSettings {
  /** the configuration's cgroupRoot ('' is the root) */
  cgroupRoot: string;
  cgroupDriver: 'cgroupfs' | 'systemd';
}

/** the names from kubepods down to the pod */
export function podCgroupNames(pod: Pod, qos: QosClass = computeQosClass(pod)): string[] {
  const podName = `pod${pod.metadata.uid}`;
  if (qos === 'Guaranteed') return ['kubepods', podName];
  return ['kubepods', qos.toLowerCase(), podName];
}

/** the cgroup parent the runtime is given: a path for cgroupfs, a slice name for systemd */
export function podCgroupParent(pod: Pod, s: PodCgroupSettings, qos?: QosClass): string {
  const names = podCgroupNames(pod, qos);
  if (s.cgroupDriver === 'systemd') {
    // systemd slices nest by name: kubepods-burstable-pod<uid>.slice, with dashes in names escaped
    return `${names.map(n => n.replace(/-/g, '_')).join('-')}.slice`;
  }
  const root = s.cgroupRoot.replace(/\/+$/, '');
  return `${root}/${names.join('/')}`;
}

export interface PodCgroupResources {
  cpuShares: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  memoryLimitBytes?: number;
}

const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
const PERIOD = 100_000;
const MIN_QUOTA = 1000;

export function milliCpuToShares(milli: number): number {
  if (milli === 0) return MIN_SHARES;
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((milli * 1024) / 1000)));
}

export function milliCpuToQuota(milli: number, period = PERIOD): number {
  if (milli === 0) return 0;
  return Math.max(MIN_QUOTA, Math.floor((milli * period) / 1000));
}

const amount = (q: unknown, scale: number) => (q === undefined ? undefined : Math.round((parseQuantity(String(q)) ?? 0) * scale));

/** the pod's effective requests or limits of one resource: regular containers add up, and init containers count by their largest (sidecars add to what follows them) */
function podAmount(pod: Pod, pick: (c: Container) => number | undefined): number | undefined {
  let sum = 0;
  let all = true;
  for (const c of pod.spec.containers) {
    const v = pick(c);
    if (v === undefined) all = false;
    else sum += v;
  }
  let sidecars = 0;
  let initMax = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const v = pick(c);
    if (v === undefined) { all = false; continue; }
    if (c.restartPolicy === 'Always') { sidecars += v; initMax = Math.max(initMax, sidecars); } else initMax = Math.max(initMax, sidecars + v);
  }
  const total = Math.max(sum + sidecars, initMax);
  return all ? total : undefined;
}

export function podCgroupResources(pod: Pod): PodCgroupResources {
  const cpuRequest = podAmount(pod, c => amount(c.resources?.requests?.cpu ?? c.resources?.limits?.cpu, 1000) ?? 0) ?? 0;
  const cpuLimit = podAmount(pod, c => amount(c.resources?.limits?.cpu, 1000));
  const memLimit = podAmount(pod, c => amount(c.resources?.limits?.memory, 1));
  const overhead = pod.spec.overhead ?? {};
  const out: PodCgroupResources = { cpuShares: milliCpuToShares(cpuRequest + (amount(overhead.cpu, 1000) ?? 0)) };
  if (cpuLimit !== undefined) { out.cpuPeriod = PERIOD; out.cpuQuota = milliCpuToQuota(cpuLimit + (amount(overhead.cpu, 1000) ?? 0)); }
  if (memLimit !== undefined) out.memoryLimitBytes = memLimit + (amount(overhead.memory, 1) ?? 0);
  return out;
}

/** the pod's effective CPU (millicores) and memory (bytes) requests, as the scheduler and the kubelet's admission count them */
export function podRequests(pod: Pod): { cpuMilli: number; memoryBytes: number } {
  return {
    cpuMilli: podAmount(pod, c => amount(c.resources?.requests?.cpu ?? c.resources?.limits?.cpu, 1000) ?? 0) ?? 0,
    memoryBytes: podAmount(pod, c => amount(c.resources?.requests?.memory ?? c.resources?.limits?.memory, 1) ?? 0) ?? 0,
  };
}
