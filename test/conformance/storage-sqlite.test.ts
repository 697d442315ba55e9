import { after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../src/storage/sqlite/store.ts';
import { storageConformance } from './storage-suite.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-sqlite-'));
let n = 0;
after(() => rm(dir, { recursive: true, force: true }));

storageConformance('sqlite', () => openSqliteStorage({ path: join(dir, `db${n++}.sqlite`) }));
