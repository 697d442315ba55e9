// The storage conformance suite (storage-suite.ts) against the embedded SQLite backend, with
// reopening: each store is a file in a temp dir, and a reopen opens the same file again.

import { after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../../src/storage/interface.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/store.ts';
import { storageConformance } from './storage-suite.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-sqlite-'));
after(() => rm(dir, { recursive: true, force: true }));

const paths = new WeakMap<Storage, string>();
let n = 0;

async function openAt(path: string): Promise<Storage> {
  const s = await openSqliteStorage({ path });
  paths.set(s, path);
  return s;
}

storageConformance('sqlite', () => openAt(join(dir, `db${n++}.sqlite`)), {
  async reopen(s) {
    await s.close();
    return openAt(paths.get(s)!);
  },
});
