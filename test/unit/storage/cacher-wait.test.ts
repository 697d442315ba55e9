// Waiting for a revision is a notification from the watch cache: it resolves when the cache's
// stream passes the revision (not on a timer), and says false when the deadline comes first.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-cacher-wait-'));
after(() => rm(dir, { recursive: true, force: true }));

test('waitForRevision resolves when the write arrives through the cache', async () => {
  const backend = await openSqliteStorage({ path: join(dir, 'a.sqlite') });
  const cache = createCacher(backend, {});
  try {
    const now = await cache.currentRevision();
    assert.equal(await cache.waitForRevision!(now, 10_000), true, 'a revision already reached resolves at once');
    let resolved = false;
    const waiting = cache.waitForRevision!(now + 2, 10_000).then(r => { resolved = true; return r; });
    await cache.create('/registry/configmaps/default/a', Buffer.from('{}'));
    await new Promise(r => setTimeout(r, 50));
    assert.equal(resolved, false, 'one write short of the revision: still waiting');
    await cache.create('/registry/configmaps/default/b', Buffer.from('{}'));
    assert.equal(await waiting, true);
  } finally {
    await cache.close();
  }
});

test('waitForRevision says false when the deadline comes first', async () => {
  const backend = await openSqliteStorage({ path: join(dir, 'b.sqlite') });
  const cache = createCacher(backend, {});
  try {
    const now = await cache.currentRevision();
    assert.equal(await cache.waitForRevision!(now + 5, 30), false);
  } finally {
    await cache.close();
  }
});
