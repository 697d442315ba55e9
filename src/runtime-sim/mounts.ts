// Files a simulated container reads through its mounts: a path under a mount's container path
// is read from the host path behind it (a hostPath volume such as kubectl debug node's `/` at
// /host, an emptyDir, a projected file), the most specific mount first. Reads only: what a
// container writes stays in its own simulated files.

import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { CriMount } from '../agent/cri/generated/cri-types.ts';

export function mountReader(mounts: readonly CriMount[]): (path: string) => string | undefined {
  const sorted = [...mounts].filter(m => m.containerPath && m.hostPath).sort((a, b) => b.containerPath.length - a.containerPath.length);
  return path => {
    for (const m of sorted) {
      const at = posix.normalize(m.containerPath);
      const rel = path === at ? '' : at === '/' ? path.slice(1) : path.startsWith(`${at}/`) ? path.slice(at.length + 1) : undefined;
      if (rel === undefined) continue;
      try {
        return readFileSync(rel ? posix.join(m.hostPath, rel) : m.hostPath, 'utf8');
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
}
