// Restore from a checkpoint archive (checkpoint.ts): a pod annotated `orch.io/restore-from:
// <archive>` starts its container where the checkpoint left it. The sim has no memory image; its
// processes are deterministic given the time they slept, so a restored container gets the files
// it had written and replays its program with that much sleeping skipped and its output held
// back: its variables, loops and files are then where they were (a counter keeps counting).

import { readFile } from 'node:fs/promises';
import { invalidArgument } from './grpc-errors.ts';

export const restoreAnnotation = 'orch.io/restore-from';

export interface RestorePoint {
  /** the files the container had written, by absolute path */
  files: Map<string, string>;
  /** how long its main process had slept when checkpointed */
  sleptMs: number;
}

/** the entries of a ustar archive (regular files only), as tarArchive writes them */
export function readTar(data: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const field = (h: Buffer, at: number, len: number) => h.subarray(at, at + len).toString('utf8').replace(/\0.*$/s, '');
  for (let off = 0; off + 512 <= data.length;) {
    const h = data.subarray(off, off + 512);
    if (h.every(b => b === 0)) break;
    const prefix = field(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
    const size = parseInt(field(h, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156] ?? 0);
    if (type === '0' || type === '\0') out.set(name, data.subarray(off + 512, off + 512 + size));
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/**
 * what the archive says of the named container: undefined for the pod's other containers (they
 * start afresh); an unreadable archive is refused at creation
 */
export async function readRestorePoint(archive: string, containerName: string): Promise<RestorePoint | undefined> {
  let entries: Map<string, Buffer>;
  try { entries = readTar(await readFile(archive)); } catch (err) {
    throw invalidArgument(`failed to read checkpoint archive ${JSON.stringify(archive)}: ${(err as Error).message}`);
  }
  const json = (name: string) => {
    const e = entries.get(name);
    if (!e) throw invalidArgument(`checkpoint archive ${JSON.stringify(archive)} has no ${name}`);
    return JSON.parse(e.toString('utf8')) as Record<string, unknown>;
  };
  const config = json('config.dump');
  if (config.name !== containerName) return undefined;
  const status = json('status.dump');
  const files = new Map<string, string>();
  for (const [path, data] of readTar(entries.get('rootfs-diff.tar') ?? Buffer.alloc(0))) files.set(`/${path}`, data.toString('utf8'));
  return { files, sleptMs: Number(status.sleptMs ?? 0) };
}
