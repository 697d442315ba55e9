import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupName, openLogFile } from '../../../../../src/apiserver/audit/backend/log-file.ts';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('backups are named as lumberjack names them: <name>-<UTC time>.<ext>', () => {
  assert.equal(backupName('/var/log/audit.log', new Date('2026-11-27T17:04:05.006Z')), '/var/log/audit-2026-11-27T17-04-05.006.log');
  assert.equal(backupName('/var/log/audit', new Date('2026-11-27T17:04:05.006Z')), '/var/log/audit-2026-11-27T17-04-05.006');
});

test('lines written in one turn land together, after the turn, in order', async t => {
  const path = join(tempDir(t), 'logs', 'audit.log'); // its directory made
  const w = openLogFile({ path });
  w.write('a');
  w.write('b');
  assert.equal(readFileSync(path, 'utf8'), '');
  await new Promise(r => setImmediate(r));
  assert.equal(readFileSync(path, 'utf8'), 'a\nb\n');
  w.write('c');
  w.close();
  assert.equal(readFileSync(path, 'utf8'), 'a\nb\nc\n');
});

test('past maxsize the file rotates; backups beyond maxbackup and older than maxage go', t => {
  const dir = tempDir(t);
  const path = join(dir, 'audit.log');
  // an old backup, past maxage
  writeFileSync(join(dir, 'audit-2020-01-01T00-00-00.000.log'), 'old\n');
  let clock = Date.parse('2026-11-27T17:00:00.000Z');
  const w = openLogFile({ path, maxSizeMB: 1, maxBackups: 2, maxAgeDays: 30, now: () => new Date(clock) });
  const line = 'x'.repeat(400 * 1024 - 1); // 400 KiB with its newline
  for (let i = 0; i < 8; i++) {
    w.write(`${i}${line.slice(1)}`);
    w.flush();
    clock += 1000;
  }
  w.close();
  const files = readdirSync(dir).sort();
  // 8 lines of 400 KiB: two per file, so three rotations; two backups kept, the old one gone
  assert.deepEqual(files, ['audit-2026-11-27T17-00-04.000.log', 'audit-2026-11-27T17-00-06.000.log', 'audit.log']);
  assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).map(l => l[0]).join(''), '67');
  assert.equal(readFileSync(join(dir, files[1]!), 'utf8').split('\n').filter(Boolean).map(l => l[0]).join(''), '45');
  for (const f of files) assert.ok(readFileSync(join(dir, f)).length <= 1024 * 1024);
});

test('an existing log is appended to, and rotated once it would pass maxsize', t => {
  const dir = tempDir(t);
  const path = join(dir, 'audit.log');
  writeFileSync(path, 'y'.repeat(1024 * 1024 - 10) + '\n');
  const w = openLogFile({ path, maxSizeMB: 1, now: () => new Date('2026-11-27T17:00:00.000Z') });
  w.write('0123456789');
  w.close();
  assert.deepEqual(readdirSync(dir).sort(), ['audit-2026-11-27T17-00-00.000.log', 'audit.log']);
  assert.equal(readFileSync(path, 'utf8'), '0123456789\n');
});
