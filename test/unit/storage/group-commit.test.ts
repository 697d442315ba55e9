// Group commit with a durable sync after COMMIT: nothing is acknowledged before the sync, and
// writes that arrive meanwhile wait for it and then share the next transaction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { GroupCommit } from '../../../src/storage/sqlite/group-commit.ts';
import { StorageError } from '../../../src/storage/interface.ts';

function harness() {
  const log: string[] = [];
  const syncs: Array<{ resolve(): void; reject(e: Error): void }> = [];
  const gc = new GroupCommit<string>({
    begin: () => log.push('begin'),
    apply: op => { log.push(`apply ${op}`); return op; },
    commit: () => { log.push('commit'); return new Promise<void>((resolve, reject) => syncs.push({ resolve, reject })); },
    rollback: () => log.push('rollback'),
    committed: () => log.push('committed'),
    aborted: () => log.push('aborted'),
    syncFailed: () => log.push('sync failed'),
  });
  return { gc, log, syncs };
}

test('writes are acknowledged only after the sync; writes meanwhile form the next batch', async () => {
  const { gc, log, syncs } = harness();
  const settled: string[] = [];
  const a = gc.submit('a').then(v => settled.push(String(v)));
  const b = gc.submit('b').then(v => settled.push(String(v)));
  await turn();
  assert.deepEqual(log, ['begin', 'apply a', 'apply b', 'commit']);
  const c = gc.submit('c').then(v => settled.push(String(v)));
  await turn();
  await turn();
  assert.deepEqual(settled, [], 'nothing acknowledged before the sync');
  assert.equal(log.includes('apply c'), false, 'no second transaction while the first is syncing');
  let idle = false;
  void gc.idle().then(() => { idle = true; });
  syncs[0]!.resolve();
  await Promise.all([a, b]);
  assert.deepEqual(settled, ['a', 'b']);
  await turn();
  assert.deepEqual(log.slice(4), ['committed', 'begin', 'apply c', 'commit']);
  assert.equal(idle, false, 'idle waits for the second sync too');
  syncs[1]!.resolve();
  await c;
  await turn();
  assert.equal(idle, true);
  assert.deepEqual(gc.stats, { batches: 2, writes: 3 });
});

test('a failed sync rejects the whole batch as unavailable and is reported', async () => {
  const { gc, log, syncs } = harness();
  const a = gc.submit('a');
  await turn();
  syncs[0]!.reject(new Error('EIO'));
  await assert.rejects(a, (err: unknown) => err instanceof StorageError && err.code === 'unavailable' && /EIO/.test(err.message));
  assert.deepEqual(log, ['begin', 'apply a', 'commit', 'sync failed']);
});
