import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { acquireLockFile, LockContentionError } from '../../../src/agent/lock-file.ts';
import { skipForMissing } from '../../support/requires.ts';

const hasFlock = existsSync('/usr/bin/flock') || existsSync('/bin/flock');
const moduleUrl = resolve(import.meta.dirname, '../../../src/agent/lock-file.ts');

test('one holder at a time; released locks can be taken again', async t => {
  if (!hasFlock) return t.skip(skipForMissing('flock (util-linux) not installed'));
  const dir = await mkdtemp(join(tmpdir(), 'orch-lock-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'agent.lock');
  const first = await acquireLockFile(path);
  await assert.rejects(acquireLockFile(path), (err: Error) => err instanceof LockContentionError && /unable to acquire the lock file ".*agent\.lock": another agent holds it/.test(err.message));
  await first.release();
  const again = await acquireLockFile(path);
  await again.release();
});

test('a holder killed with SIGKILL leaves no stale lock', async t => {
  if (!hasFlock) return t.skip(skipForMissing('flock (util-linux) not installed'));
  const dir = await mkdtemp(join(tmpdir(), 'orch-lock-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'agent.lock');
  const script = `const m = await import(${JSON.stringify(moduleUrl)}); await m.acquireLockFile(${JSON.stringify(path)}); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>(r => child.stdout!.on('data', d => { if (String(d).includes('held')) r(); }));
  await assert.rejects(acquireLockFile(path), LockContentionError);
  child.kill('SIGKILL');
  await new Promise(r => child.once('exit', r));
  let lock;
  for (let i = 0; i < 50 && !lock; i++) lock = await acquireLockFile(path).catch(() => new Promise<undefined>(r => setTimeout(() => r(undefined), 100)));
  assert.ok(lock, 'the lock is free once the holder is gone');
  await lock.release();
});

test('exit-on-lock-contention: the newcomer announces itself and waits; the holder is told and steps aside', async t => {
  if (!hasFlock) return t.skip(skipForMissing('flock (util-linux) not installed'));
  const dir = await mkdtemp(join(tmpdir(), 'orch-lock-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'agent.lock');
  let told = 0;
  let holder: { release(): Promise<void> } | undefined;
  holder = await acquireLockFile(path, { exitOnContention: true, onContention: () => { told++; void holder!.release(); } });
  await new Promise(r => setTimeout(r, 200));
  const newcomer = await acquireLockFile(path, { exitOnContention: true });
  assert.equal(told, 1);
  await newcomer.release();
});
