import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../src/api/log.ts';
import { securePrivateDirs } from '../../../src/pki/private-files.ts';
import { openDatabase } from '../../../src/storage/sqlite/schema.ts';

const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

async function scratch(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'orch-private-'));
}

test('a new data directory is 0700 and the database and its WAL are 0600, whatever the umask', async () => {
  const root = await scratch();
  const old = process.umask(0o022);
  try {
    const data = join(root, 'data');
    const lines: string[] = [];
    await securePrivateDirs(data, join(data, 'pki'), createLogger('info', l => { lines.push(l); }, { format: 'json' }));
    assert.equal(await modeOf(data), 0o700);
    assert.equal(await modeOf(join(data, 'pki')), 0o700);
    assert.deepEqual(lines, [], 'nothing to tighten in a new directory');
    const db = openDatabase(join(data, 'orch.db'));
    db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('secret')");
    assert.equal(await modeOf(join(data, 'orch.db')), 0o600);
    assert.equal(await modeOf(join(data, 'orch.db-wal')), 0o600);
    db.close();
  } finally {
    process.umask(old);
    await rm(root, { recursive: true, force: true });
  }
});

test('an existing readable data directory is tightened at start, and the log says what changed', async () => {
  const root = await scratch();
  try {
    const data = join(root, 'data'), pki = join(data, 'pki');
    await mkdir(pki, { recursive: true });
    await chmod(data, 0o755);
    await chmod(pki, 0o755);
    for (const f of ['orch.db', 'orch.db-wal', 'admin.kubeconfig']) { await writeFile(join(data, f), 'x'); await chmod(join(data, f), 0o644); }
    for (const f of ['ca.key', 'ca.crt']) { await writeFile(join(pki, f), 'x'); await chmod(join(pki, f), 0o644); }
    const lines: string[] = [];
    await securePrivateDirs(data, pki, createLogger('info', l => { lines.push(l); }, { format: 'json' }));
    assert.equal(await modeOf(data), 0o700);
    assert.equal(await modeOf(pki), 0o700);
    for (const f of ['orch.db', 'orch.db-wal', 'admin.kubeconfig']) assert.equal(await modeOf(join(data, f)), 0o600, f);
    assert.equal(await modeOf(join(pki, 'ca.key')), 0o600);
    assert.equal(await modeOf(join(pki, 'ca.crt')), 0o644, 'certificates stay readable');
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.msg, 'made private files readable by their owner only');
    assert.deepEqual(new Set(line.paths), new Set([data, pki, join(data, 'orch.db'), join(data, 'orch.db-wal'), join(data, 'admin.kubeconfig'), join(pki, 'ca.key')]));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
