// Volumes go with their pod: a terminated pod's mounts (memory-backed emptyDirs, shared bind
// mounts for propagation and whatever containers propagated into them) are unmounted, and a
// removed pod's directory deleted. A directory that still has something mounted below it is left
// in place with an error, never removed: the removal would reach into what is mounted there.

import { rm } from 'node:fs/promises';
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
