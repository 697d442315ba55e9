// Every write the SQLite backend acknowledged survives a kill -9 of its process, at the
// revision it was acknowledged with.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';

const writer = join(import.meta.dirname, 'support', 'durability-writer.ts');

test('acknowledged writes survive SIGKILL of the writing process', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-durability-'));
  const path = join(dir, 'state.db');
  try {
    const child = spawn(process.execPath, [writer, path], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked: Array<{ key: string; revision: number; value: string }> = [];
    let buffered = '';
    const exited = new Promise<NodeJS.Signals | null>(resolve => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          if (line === 'ready') continue;
          const [key, revision, value] = line.split(' ');
          acked.push({ key: key!, revision: Number(revision), value: value! });
        }
        // kill in the middle of the run, with writes in flight
        if (acked.length >= 2000 && !child.killed) { child.kill('SIGKILL'); resolve(); }
      });
      child.on('exit', () => resolve());
      setTimeout(() => reject(new Error(`only ${acked.length} acknowledged writes in 60s`)), 60_000).unref();
    });
    assert.equal(await exited, 'SIGKILL', 'the writer died by SIGKILL, not on its own');
    assert.ok(acked.length >= 2000);

    const s = await openSqliteStorage({ path });
    try {
      const maxAcked = Math.max(...acked.map(a => a.revision));
      assert.ok((await s.currentRevision()) >= maxAcked, 'the revision counter covers every acknowledged write');
      const seen = new Set<number>();
      for (const a of acked) {
        assert.ok(!seen.has(a.revision), `revision ${a.revision} acknowledged twice`);
        seen.add(a.revision);
        const got = (await s.get(a.key, { revision: a.revision })).kv;
        assert.ok(got, `${a.key} at ${a.revision} is missing`);
        assert.equal(got.modRevision, a.revision, `${a.key}: newest row at ${a.revision}`);
        assert.equal(new TextDecoder().decode(got.value), a.value);
      }
      // the store goes on from where it was
      const next = await s.create('/d/after-restart', new Uint8Array([1]));
      assert.ok(next.modRevision > maxAcked);
    } finally {
      await s.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
