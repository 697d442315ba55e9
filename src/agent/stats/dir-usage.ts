// Bytes and inodes a directory tree holds, as the kubelet measures volumes and logs (du-like:
// allocated blocks, each inode counted once). A tree that changes under the walk is counted as
// far as it could be read.

import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface DirUsage { bytes: number; inodes: number }

export async function dirUsage(root: string): Promise<DirUsage> {
  const seen = new Set<string>();
  let bytes = 0;
  let inodes = 0;
  const walk = async (p: string): Promise<void> => {
    const st = await lstat(p, { bigint: false }).catch(() => undefined);
    if (!st) return;
    const key = `${st.dev}:${st.ino}`;
    if (seen.has(key)) return;
    seen.add(key);
    inodes++;
    bytes += st.blocks * 512;
    if (!st.isDirectory()) return;
    const names = await readdir(p).catch(() => [] as string[]);
    for (const n of names) await walk(join(p, n));
  };
  await walk(root);
  return { bytes, inodes };
}
