// The data directory holds the database (every Secret in it) and credentials: only the owner may
// read it. New directories and files are made private; ones an older version left readable by
// others are tightened at start, and the log says which.

import { closeSync, openSync } from 'node:fs';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../api/log.ts';

export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

/** make `dir` (and missing parents) owner-only; returns it when an existing one had to be tightened */
async function privateDir(dir: string): Promise<string | undefined> {
  await mkdir(dir, { recursive: true, mode: privateDirMode });
  const { mode } = await stat(dir);
  if ((mode & 0o777) === privateDirMode) return undefined;
  await chmod(dir, privateDirMode);
  return dir;
}

/**
 * The data directory made owner-only, with every file in it (the database, its WAL, the
 * kubeconfig) and the private keys of the certificate directory 0600. Certificates stay readable.
 */
export async function securePrivateDirs(dataDir: string, certDir: string, log?: Logger): Promise<void> {
  const tightened: string[] = [];
  for (const dir of [dataDir, certDir]) {
    const changed = await privateDir(dir);
    if (changed) tightened.push(changed);
  }
  const check = async (path: string) => {
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile() || (st.mode & 0o077) === 0) return;
    await chmod(path, privateFileMode);
    tightened.push(path);
  };
  for (const name of await readdir(dataDir)) await check(join(dataDir, name));
  for (const name of await readdir(certDir)) if (name.endsWith('.key')) await check(join(certDir, name));
  if (tightened.length) log?.warn('made private files readable by their owner only', { paths: tightened });
}

/** create `path` empty and owner-only unless it exists, so that what is written into it never was readable */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', privateFileMode));
}
