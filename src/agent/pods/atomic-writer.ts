// ConfigMap and Secret volumes written the way Kubernetes' atomic writer writes them, so a
// running container never sees a half-written or missing volume: the files of each version live
// in a directory of their own (`..<time>.<random>`), the `..data` link names the current one and
// is swapped by a rename, and the names the container sees are links through `..data`. The
// mount point itself never changes, so a bind mount of it stays valid across updates.

import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** one file of a volume's payload: its path inside the volume, bytes and mode */
export interface PayloadFile { path: string; content: Buffer; mode: number }

const dataLink = '..data';

function stamp(now: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `..${now.getUTCFullYear()}_${p(now.getUTCMonth() + 1)}_${p(now.getUTCDate())}_${p(now.getUTCHours())}_${p(now.getUTCMinutes())}_${p(now.getUTCSeconds())}.`;
}

/**
 * whether the version `dir` holds exactly these files with these contents; modes are not
 * compared, as the kubelet's writer does not (a pod's fsGroup changes them after the write, and
 * a volume's modes cannot change with the pod's spec)
 */
async function holds(dir: string, files: PayloadFile[]): Promise<boolean> {
  const seen: string[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    for (const e of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) { if (!(await walk(path))) return false; continue; }
      seen.push(path);
    }
    return true;
  };
  try {
    if (!(await walk(''))) return false;
    if (seen.length !== files.length) return false;
    for (const f of files) {
      if (!(await readFile(join(dir, f.path))).equals(f.content)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** makes `dir` show exactly `files`; a payload equal to what it shows already writes nothing */
export async function writeAtomically(dir: string, files: PayloadFile[], now: Date = new Date()): Promise<void> {
  await mkdir(dir, { recursive: true });
  const current = await readlink(join(dir, dataLink)).catch(() => undefined);
  if (current && await holds(join(dir, current), files)) return;

  const version = await mkdtemp(join(dir, stamp(now)));
  await chmod(version, 0o755);
  for (const f of files) {
    const file = join(version, f.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, f.content);
    await chmod(file, f.mode);
  }
  // the swap: a new link renamed over the old one, so `..data` always names a whole version
  const tmp = join(dir, `${dataLink}_tmp`);
  await rm(tmp, { force: true });
  await symlink(basename(version), tmp);
  await rename(tmp, join(dir, dataLink));

  const visible = new Set(files.map(f => f.path.split('/')[0]!));
  for (const name of visible) {
    const link = join(dir, name);
    const target = `${dataLink}/${name}`;
    if ((await readlink(link).catch(() => undefined)) === target) continue;
    await rm(link, { recursive: true, force: true });
    await symlink(target, link);
  }
  // older versions, and names the payload no longer has
  for (const entry of await readdir(dir)) {
    if (entry === dataLink || entry === basename(version)) continue;
    if (entry.startsWith('..') || !visible.has(entry)) await rm(join(dir, entry), { recursive: true, force: true });
  }
}
