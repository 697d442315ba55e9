// Container log rotation, as the kubelet's container log manager does it: a running
// container's log over containerLogMaxSize is renamed <log>.<YYYYMMDD-hhmmss> and the runtime
// asked to reopen its log (CRI ReopenContainerLog); rotated files beyond containerLogMaxFiles
// (the current log counts as one) are removed oldest first, and all but the newest rotated file
// are gzip-compressed. A runtime that cannot reopen gets its log renamed back.

import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** the suffix a rotated log gets: the time of the rotation, as Go's "20060102-150405" */
export function rotationSuffix(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

const rotatedPattern = (log: string) => new RegExp(`^${basename(log).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d{8}-\\d{6}(\\.gz)?$`);

/** the rotated files of a log, oldest first */
export async function rotatedLogs(log: string): Promise<string[]> {
  const re = rotatedPattern(log);
  return (await readdir(dirname(log)).catch(() => [] as string[])).filter(n => re.test(n)).sort().map(n => join(dirname(log), n));
}

async function gzipFile(path: string): Promise<void> {
  const tmp = `${path}.gz.tmp`;
  await pipeline(createReadStream(path), createGzip(), createWriteStream(tmp));
  await rename(tmp, `${path}.gz`);
  await rm(path, { force: true });
}

/**
 * Rotates `log` when it has grown past `maxSize`; true when it did. `reopen` asks the runtime to
 * write to a new file at the same path.
 */
export async function rotateIfNeeded(log: string, maxSize: number, maxFiles: number, now: number, reopen: () => Promise<unknown>): Promise<boolean> {
  const size = (await stat(log).catch(() => undefined))?.size;
  if (size === undefined || size < maxSize) return false;
  // leftovers of an interrupted compression
  for (const n of await readdir(dirname(log)).catch(() => [] as string[])) if (n.startsWith(`${basename(log)}.`) && n.endsWith('.tmp')) await rm(join(dirname(log), n), { force: true });
  // room for the file this rotation makes: the current log plus maxFiles - 1 rotated ones
  const rotated = await rotatedLogs(log);
  for (const old of rotated.slice(0, Math.max(0, rotated.length - (maxFiles - 2)))) await rm(old, { force: true });
  for (const r of (await rotatedLogs(log)).filter(r => !r.endsWith('.gz'))) await gzipFile(r);
  const target = `${log}.${rotationSuffix(now)}`;
  await rename(log, target);
  try {
    await reopen();
  } catch (err) {
    await rename(target, log).catch(() => undefined);
    throw err;
  }
  return true;
}
