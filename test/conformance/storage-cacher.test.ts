// The shared storage suite against the watch cache layered on the SQLite backend: the cache
// must be indistinguishable from the storage below it.

import { after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../src/storage/sqlite/store.ts';
import { createCacher } from '../../src/storage/cacher/cacher.ts';
import { storageConformance } from './storage-suite.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-cacher-'));
let n = 0;
after(() => rm(dir, { recursive: true, force: true }));

// a short wait for future revisions keeps the suite's future-revision check quick
storageConformance('cacher over sqlite', async () => createCacher(await openSqliteStorage({ path: join(dir, `db${n++}.sqlite`) }), { freshWaitMs: 200 }));
