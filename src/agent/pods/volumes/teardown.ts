// Volumes go with their pod: a terminated pod's mounts (memory-backed emptyDirs, shared bind
// mounts for propagation and whatever containers propagated into them) are unmounted, and a
// removed pod's directory deleted. A directory that still has something mounted below it is left
// in place with an error, never removed: the removal would reach into what is mounted there.
// Directories of pods nothing knows any more (deleted while the agent was down) are cleaned up
// the same way once the agent has read its sources, as the kubelet's housekeeping does.

import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { podDir } from './layout.ts';
import { unmountAllUnder } from './host-mounts.ts';

/** unmounts every volume mount of a pod; what could not be unmounted is an error */
export async function unmountPodVolumes(rootDir: string, uid: string): Promise<void> {
  const left = await unmountAllUnder(podDir(rootDir, uid));
  if (left.length) throw new Error(`still mounted after unmounting: ${left.join(', ')}`);
}

export async function removePodDir(rootDir: string, uid: string): Promise<void> {
  await unmountPodVolumes(rootDir, uid);
  await rm(podDir(rootDir, uid), { recursive: true, force: true });
}

/** removes the directory of every pod under `<root>/pods` that `known` does not know; the uids removed */
export async function removeOrphanedPodDirs(rootDir: string, known: (uid: string) => boolean, warn: (uid: string, err: unknown) => void): Promise<string[]> {
  const removed: string[] = [];
  // only directories are pods': the pod info socket (agent.sock) lives beside them
  const entries = await readdir(join(rootDir, 'pods'), { withFileTypes: true }).catch(() => []);
  for (const uid of entries.filter(e => e.isDirectory()).map(e => e.name)) {
    if (known(uid)) continue;
    try {
      await removePodDir(rootDir, uid);
      removed.push(uid);
    } catch (err) {
      warn(uid, err);
    }
  }
  return removed;
}
