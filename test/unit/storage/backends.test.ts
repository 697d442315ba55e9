// The backend table: names, URL schemes, the default, and unknown specs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendNames, openStorage, registerBackend, resolveBackend } from '../../../src/storage/backends.ts';

test('names and URL schemes resolve through one table; sqlite is the default', () => {
  assert.equal(resolveBackend(undefined).entry.name, 'sqlite');
  assert.equal(resolveBackend('').entry.name, 'sqlite');
  assert.deepEqual(resolveBackend('sqlite:///var/lib/orch/x.db').location, '/var/lib/orch/x.db');
  assert.equal(resolveBackend('file:state.db').location, 'state.db');
  assert.throws(() => resolveBackend('mysql://db:3306'), /unknown storage backend "mysql:\/\/db:3306" \(known: sqlite/);
  registerBackend({ name: 'fake', schemes: ['fake'], open: async () => { throw new Error('not used'); } });
  assert.equal(resolveBackend('fake://h:1').entry.name, 'fake');
  assert.equal(resolveBackend('fake://h:1').location, 'h:1');
  assert.ok(backendNames().includes('fake'));
});

test('openStorage places the sqlite file in the data dir, or where the URL says', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-backends-'));
  try {
    const a = await openStorage('sqlite', { dataDir: dir });
    await a.close();
    await stat(join(dir, 'orch.db'));
    const b = await openStorage(`sqlite://${join(dir, 'other.db')}`, { dataDir: '/nonexistent' });
    await b.close();
    await stat(join(dir, 'other.db'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
