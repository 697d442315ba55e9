// The Summary API's shape (stats/v1alpha1, what the kubelet serves at /stats/summary): only the
// fields orch fills. Times are RFC 3339; byte and nanosecond counts are plain numbers.

export interface CpuStats { time: string; usageNanoCores?: number; usageCoreNanoSeconds?: number }
export interface MemoryStats { time: string; availableBytes?: number; usageBytes?: number; workingSetBytes?: number; rssBytes?: number; pageFaults?: number; majorPageFaults?: number }
export interface InterfaceStatsJson { name: string; rxBytes?: number; rxErrors?: number; txBytes?: number; txErrors?: number }
export interface NetworkStats extends InterfaceStatsJson { time: string; interfaces?: InterfaceStatsJson[] }
export interface FsStats { time: string; availableBytes?: number; capacityBytes?: number; usedBytes?: number; inodesFree?: number; inodes?: number; inodesUsed?: number }
export interface VolumeStats extends FsStats { name: string }
export interface RlimitStats { time: string; maxpid?: number; curproc?: number }

export interface ContainerStatsJson {
  name: string;
  startTime: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  rootfs?: FsStats;
  logs?: FsStats;
}

export interface PodStatsJson {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStatsJson[];
  cpu?: CpuStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  volume?: VolumeStats[];
  'ephemeral-storage'?: FsStats;
  process_stats?: { process_count?: number };
}

export interface NodeStatsJson {
  nodeName: string;
  startTime: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  fs?: FsStats;
  runtime?: { imageFs?: FsStats; containerFs?: FsStats };
  rlimit?: RlimitStats;
}

export interface Summary { node: NodeStatsJson; pods: PodStatsJson[] }
