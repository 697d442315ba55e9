// How much a pod's volumes hold, for the Summary API's volume stats and the eviction manager
// (an emptyDir past its sizeLimit): bytes as allocated blocks and inodes, each inode counted once,
// walked like du (the kubelet's MetricsDu); the capacity and what is left of the filesystem each
// volume lives on, which for a memory-backed emptyDir is its own tmpfs. hostPath volumes are the
// host's and not counted, as the kubelet does not count them.

import { lstat, readdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pod } from '../types.ts';
import { volumeDir, type PluginType } from './layout.ts';
import { mountTable } from './host-mounts.ts';

export interface VolumeUsage {
  name: string;
  path: string;
  /** on a tmpfs of its own (emptyDir medium Memory; Secret, downward API and projected volumes) */
  memoryBacked: boolean;
  usedBytes: number;
  inodesUsed: number;
  capacityBytes: number;
  availableBytes: number;
  inodes: number;
  inodesFree: number;
}

/** the host directory of each volume of the pod that has one under the pod's directory; memoryBacked as the spec asks */
export function podVolumePaths(rootDir: string, pod: Pod): Array<{ name: string; path: string; memoryBacked: boolean }> {
  const types: PluginType[] = ['emptyDir', 'configMap', 'secret', 'downwardAPI', 'projected'];
  const out = [];
  for (const v of pod.spec.volumes ?? []) {
    const type = types.find(t => v[t] != null);
    if (type) out.push({ name: v.name, path: volumeDir(rootDir, pod.metadata.uid, type, v.name), memoryBacked: type === 'emptyDir' && v.emptyDir?.medium === 'Memory' });
  }
  return out;
}

/** bytes (allocated blocks) and inodes under `root`, each inode once; a tree changing meanwhile is counted as far as it was read */
export async function treeUsage(root: string): Promise<{ bytes: number; inodes: number }> {
  const seen = new Set<string>();
  let bytes = 0, inodes = 0;
  const walk = async (p: string, dev?: number): Promise<void> => {
    const st = await lstat(p).catch(() => undefined);
    // another filesystem mounted inside (a container's propagated mount) is not this volume's
    if (!st || (dev !== undefined && st.dev !== dev)) return;
    const key = `${st.dev}:${st.ino}`;
    if (seen.has(key)) return;
    seen.add(key);
    inodes++;
    bytes += st.blocks * 512;
    if (st.isDirectory()) for (const name of await readdir(p).catch(() => [] as string[])) await walk(join(p, name), st.dev);
  };
  await walk(root);
  return { bytes, inodes };
}

export async function podVolumeUsage(rootDir: string, pod: Pod): Promise<VolumeUsage[]> {
  const out: VolumeUsage[] = [];
  const table = await mountTable();
  for (const spec of podVolumePaths(rootDir, pod)) {
    // what is mounted there says it: Secrets and the like are on tmpfs where the agent runs as root
    const v = { ...spec, memoryBacked: table.filter(m => m.target === spec.path).at(-1)?.fsType === 'tmpfs' };
    const fs = await statfs(v.path).catch(() => undefined);
    if (!fs) continue;
    const used = await treeUsage(v.path);
    out.push({
      ...v,
      usedBytes: used.bytes,
      inodesUsed: used.inodes,
      capacityBytes: fs.blocks * fs.bsize,
      availableBytes: fs.bavail * fs.bsize,
      inodes: fs.files,
      inodesFree: fs.ffree,
    });
  }
  return out;
}
