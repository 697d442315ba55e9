// Collects the Summary (/stats/summary): the node from /proc, the root cgroup and statfs; pods
// and containers from the runtime's stats calls (ListContainerStats, and ListPodSandboxStats
// where the runtime answers it, for pod network); volumes and logs by walking their
// directories. A pod is listed while one of its containers runs, as the kubelet lists them.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { rfc3339 } from '../../api/time.ts';
import type { CriClient } from '../cri/client.ts';
import type { CriContainerStats, CriFilesystemUsage } from '../cri/generated/cri-types.ts';
import type { HostFiles } from '../machine/host-files.ts';
import { readMachineUsage, type DiskStats } from '../machine/usage.ts';
import { CONTAINER_NAME, POD_NAME, POD_NAMESPACE, POD_UID } from '../pods/cri-labels.ts';
import { podLogDir } from '../pods/cri-config.ts';
import { podDir } from '../pods/volumes.ts';
import type { Pod } from '../pods/types.ts';
import { CpuRates } from './cpu-rate.ts';
import { dirUsage } from './dir-usage.ts';
import { nodeCpuUsageNs, parseNetDev, type InterfaceStats } from './host-stats.ts';
import type { ContainerStatsJson, FsStats, NetworkStats, PodStatsJson, Summary, VolumeStats } from './summary-types.ts';

export interface StatsDeps {
  nodeName: string;
  /** when the agent started (ms), the node's startTime as the kubelet reports its own */
  startedAtMs: number;
  files: HostFiles;
  rootDir: string;
  podLogsDir: string;
  disk: DiskStats;
  cri?: CriClient;
  /** the pods the agent runs */
  pods(): Pod[];
  now(): number;
}

export interface Collected {
  summary: Summary;
  /** the runtime's stats calls failed: the summary holds the node only */
  runtimeError?: string;
}

export interface StatsCollector {
  collect(): Promise<Collected>;
}

const num = (v: { value?: number | string } | undefined | null): number | undefined => (v?.value === undefined ? undefined : Number(v.value));
const nsToMs = (ns: number | string | undefined) => Math.floor(Number(ns ?? 0) / 1e6);

function network(time: string, ifaces: InterfaceStats[]): NetworkStats | undefined {
  const first = ifaces.find(i => i.name === 'eth0') ?? ifaces[0];
  if (!first) return undefined;
  return { time, ...first, interfaces: ifaces };
}

export function statsCollector(d: StatsDeps): StatsCollector {
  const rates = new CpuRates();
  /** a running container's process id, asked once (network counters are read through it) */
  const pids = new Map<string, number | undefined>();

  async function fsOf(path: string, used?: { bytes: number; inodes: number }, time = rfc3339(d.now())): Promise<FsStats> {
    const s = await d.disk(path).catch(() => undefined);
    return {
      time,
      ...(s ? { availableBytes: s.available, capacityBytes: s.capacity, inodesFree: s.inodesFree, inodes: s.inodes } : {}),
      ...(used ? { usedBytes: used.bytes, inodesUsed: used.inodes } : s ? { usedBytes: s.capacity - s.available, inodesUsed: s.inodes - s.inodesFree } : {}),
    };
  }

  async function criFs(u: CriFilesystemUsage | undefined): Promise<FsStats | undefined> {
    if (!u) return undefined;
    const used = { bytes: num(u.usedBytes) ?? 0, inodes: num(u.inodesUsed) ?? 0 };
    return u.fsId?.mountpoint ? fsOf(u.fsId.mountpoint, used, rfc3339(nsToMs(u.timestamp) || d.now())) : { time: rfc3339(d.now()), usedBytes: used.bytes, inodesUsed: used.inodes };
  }

  async function pidOf(id: string): Promise<number | undefined> {
    if (pids.has(id)) return pids.get(id);
    const res = await d.cri!.containerStatus({ containerId: id, verbose: true }).catch(() => undefined);
    let pid: number | undefined;
    try { pid = Number(JSON.parse(res?.info?.info ?? '{}').pid) || undefined; } catch { pid = undefined; }
    pids.set(id, pid);
    return pid;
  }

  async function volumes(uid: string, time: string): Promise<VolumeStats[]> {
    const base = join(podDir(d.rootDir, uid), 'volumes');
    const out: VolumeStats[] = [];
    const list = (p: string) => readdir(p).catch(() => [] as string[]);
    for (const plugin of await list(base)) {
      for (const name of await list(join(base, plugin))) {
        const path = join(base, plugin, name);
        out.push({ name, ...(await fsOf(path, await dirUsage(path), time)) });
      }
    }
    return out;
  }

  async function containerStats(s: CriContainerStats, pod: Pod | undefined, start: Map<string, number>): Promise<ContainerStatsJson> {
    const labels = s.attributes?.labels ?? {};
    const name = labels[CONTAINER_NAME] ?? s.attributes?.metadata?.name ?? '';
    const id = s.attributes?.id ?? '';
    const cpuTime = nsToMs(s.cpu?.timestamp) || d.now();
    const usageNs = num(s.cpu?.usageCoreNanoSeconds);
    const nanoCores = usageNs === undefined ? undefined : rates.rate(id, { timeNs: cpuTime * 1e6, usageNs });
    const out: ContainerStatsJson = { name, startTime: rfc3339(start.get(id) ?? d.now()) };
    if (s.cpu) out.cpu = { time: rfc3339(cpuTime), ...(nanoCores !== undefined ? { usageNanoCores: nanoCores } : num(s.cpu.usageNanoCores) ? { usageNanoCores: num(s.cpu.usageNanoCores) } : {}), ...(usageNs !== undefined ? { usageCoreNanoSeconds: usageNs } : {}) };
    if (s.memory) {
      const m = s.memory;
      out.memory = { time: rfc3339(nsToMs(m.timestamp) || d.now()), availableBytes: num(m.availableBytes), usageBytes: num(m.usageBytes), workingSetBytes: num(m.workingSetBytes), rssBytes: num(m.rssBytes), pageFaults: num(m.pageFaults), majorPageFaults: num(m.majorPageFaults) };
    }
    out.rootfs = await criFs(s.writableLayer);
    // the pod's log directory is named from the runtime's labels, so logs are measured even
    // before the agent's sources know the pod (just after a restart)
    const ref = pod ?? { metadata: { namespace: labels[POD_NAMESPACE] ?? '', name: labels[POD_NAME] ?? '', uid: labels[POD_UID] ?? '' } } as Pod;
    const logDir = join(podLogDir(d.podLogsDir, ref), name);
    out.logs = await fsOf(logDir, await dirUsage(logDir));
    return out;
  }

  return {
    async collect() {
      const nowMs = d.now();
      const time = rfc3339(nowMs);
      const [usage, cpuNs, netDev] = await Promise.all([readMachineUsage(d.files, d.rootDir, d.disk), nodeCpuUsageNs(d.files), d.files.read('proc/net/dev')]);
      const nodeRate = rates.rate('/', { timeNs: nowMs * 1e6, usageNs: cpuNs });
      const workingSet = usage.memoryCapacityBytes - usage.memoryAvailableBytes;
      const node: Summary['node'] = {
        nodeName: d.nodeName,
        startTime: rfc3339(d.startedAtMs),
        cpu: { time, ...(nodeRate !== undefined ? { usageNanoCores: nodeRate } : {}), usageCoreNanoSeconds: cpuNs },
        memory: { time, availableBytes: usage.memoryAvailableBytes, usageBytes: workingSet, workingSetBytes: workingSet },
        network: network(time, parseNetDev(netDev)),
        fs: await fsOf(d.rootDir, undefined, time),
        rlimit: { time, maxpid: usage.pidMax, curproc: usage.processes },
      };
      if (!d.cri) return { summary: { node, pods: [] } };
      try {
        return { summary: { node, pods: await podStats(node, time) } };
      } catch (err) {
        return { summary: { node, pods: [] }, runtimeError: String((err as Error).message ?? err) };
      }
    },
  };

  async function podStats(node: Summary['node'], time: string): Promise<PodStatsJson[]> {
      const [stats, sandboxStats, images, listed] = await Promise.all([
        d.cri!.listContainerStats({}),
        // runtimes without pod cgroups (containerd with no cgroupParent) refuse this; network then comes from a container's process
        d.cri!.listPodSandboxStats({}).catch(() => undefined),
        d.cri!.imageFsInfo({}).catch(() => undefined),
        d.cri!.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } }),
      ]);
      const imageFs = await criFs(images?.imageFilesystems?.[0]);
      node.runtime = { ...(imageFs ? { imageFs, containerFs: imageFs } : {}) };
      const running = new Set((listed.containers ?? []).map(c => c.id));
      const start = new Map<string, number>();
      for (const c of listed.containers ?? []) start.set(c.id, nsToMs(c.createdAt));
      const byUid = new Map(d.pods().map(p => [p.metadata.uid, p]));
      const groups = new Map<string, CriContainerStats[]>();
      for (const s of stats.stats ?? []) {
        const uid = s.attributes?.labels?.[POD_UID];
        if (!uid || !running.has(s.attributes?.id ?? '')) continue;
        groups.set(uid, [...(groups.get(uid) ?? []), s]);
      }
      rates.retain(new Set(['/', ...running]));
      for (const id of pids.keys()) if (!running.has(id)) pids.delete(id);

      const pods: PodStatsJson[] = [];
      for (const [uid, list] of groups) {
        const pod = byUid.get(uid);
        const labels = list[0]!.attributes?.labels ?? {};
        const containers = await Promise.all(list.map(s => containerStats(s, pod, start)));
        const sum = (f: (c: ContainerStatsJson) => number | undefined) => containers.reduce((a, c) => a + (f(c) ?? 0), 0);
        const sb = sandboxStats?.stats?.find(s => s.attributes?.metadata?.uid === uid)?.linux;
        let net: NetworkStats | undefined;
        if (sb?.network?.defaultInterface) {
          const i = sb.network.defaultInterface;
          net = { time, name: i.name, rxBytes: num(i.rxBytes), rxErrors: num(i.rxErrors), txBytes: num(i.txBytes), txErrors: num(i.txErrors) };
        } else {
          const pid = await pidOf(list[0]!.attributes?.id ?? '');
          if (pid) net = network(time, parseNetDev(await d.files.read(`proc/${pid}/net/dev`)));
        }
        const vols = await volumes(uid, time);
        const ephemeral = sum(c => c.rootfs?.usedBytes) + sum(c => c.logs?.usedBytes) + vols.filter(v => v.capacityBytes === node.fs?.capacityBytes).reduce((a, v) => a + (v.usedBytes ?? 0), 0);
        pods.push({
          podRef: { name: pod?.metadata.name ?? labels[POD_NAME] ?? '', namespace: pod?.metadata.namespace ?? labels[POD_NAMESPACE] ?? '', uid },
          startTime: pod?.status?.startTime ?? rfc3339(Math.min(...containers.map(c => Date.parse(c.startTime)))),
          containers,
          cpu: { time, usageNanoCores: sum(c => c.cpu?.usageNanoCores), usageCoreNanoSeconds: sum(c => c.cpu?.usageCoreNanoSeconds) },
          memory: { time, usageBytes: sum(c => c.memory?.usageBytes), workingSetBytes: sum(c => c.memory?.workingSetBytes), rssBytes: sum(c => c.memory?.rssBytes) },
          ...(net ? { network: net } : {}),
          volume: vols,
          'ephemeral-storage': { time, ...(node.fs ? { availableBytes: node.fs.availableBytes, capacityBytes: node.fs.capacityBytes } : {}), usedBytes: ephemeral },
        });
      }
      pods.sort((a, b) => (a.podRef.namespace + a.podRef.name < b.podRef.namespace + b.podRef.name ? -1 : 1));
      return pods;
  }
}
