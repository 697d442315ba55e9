// GET /storage/snapshot: a consistent copy of the SQLite database, taken online, for `orch
// backup`. The file is the whole cluster's state, Secrets included, so it is a non-resource URL
// that only a caller granted it (cluster-admin's `*`) reaches; the copy is made in the private
// data dir and removed once sent.

import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { methodNotAllowed, resourceNotFound } from '../api/status.ts';
import type { RequestContext } from './context.ts';

export const snapshotPath = '/storage/snapshot';
/** the media type SQLite files are registered under */
export const snapshotMediaType = 'application/vnd.sqlite3';
/** the revision the copy holds */
export const snapshotRevisionHeader = 'X-Orch-Snapshot-Revision';

export interface SnapshotSource {
  /** where the copy is made before it is sent (private to the server) */
  dir: string;
  backup(dest: string): Promise<{ revision: number }>;
}

export async function serveSnapshot(ctx: RequestContext, source: SnapshotSource | undefined): Promise<void> {
  // etcd has its own: `etcdctl snapshot save` (docs/storage.md)
  if (!source) throw resourceNotFound();
  if (ctx.method !== 'GET') throw methodNotAllowed();
  const file = join(source.dir, `snapshot-${process.pid}-${Date.now()}.db`);
  try {
    const { revision } = await source.backup(file);
    const { size } = await stat(file);
    ctx.res.writeHead(200, { 'Content-Type': snapshotMediaType, 'Content-Length': String(size), [snapshotRevisionHeader]: String(revision) });
    for await (const chunk of createReadStream(file)) {
      // one chunk in flight at a time: a slow reader holds the file, not the server's memory
      await new Promise<void>((resolve, reject) => ctx.res.write(chunk as Buffer, err => (err ? reject(err) : resolve())));
    }
    ctx.res.end();
  } finally {
    await rm(file, { force: true });
  }
}
