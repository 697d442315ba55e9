import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointer, checkpointLocation, checkpointTimeout, ensureCheckpointsDir, rfc3339Local } from '../../../../src/agent/checkpoint/checkpoint.ts';
import { CriError } from '../../../../src/agent/cri/errors.ts';
import type { CriClient } from '../../../../src/agent/cri/client.ts';

test('the archive is named checkpoint-<pod>_<namespace>-<container>-<RFC 3339 time>.tar under <root>/checkpoints', () => {
  const at = new Date('2026-11-27T14:55:07.123Z');
  const stamp = rfc3339Local(at);
  // local time, whole seconds, Z or the zone offset as Go's time.RFC3339 prints it
  assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  if (at.getTimezoneOffset() === 0) assert.equal(stamp, '2026-11-27T14:55:07Z');
  assert.equal(checkpointLocation('/var/lib/agent', 'default', 'web', 'app', at), `/var/lib/agent/checkpoints/checkpoint-web_default-app-${stamp}.tar`);
});

test('the timeout: 0 or less than the CRI default → the default; more → as asked; negative → the kubelet\'s error', () => {
  assert.deepEqual(checkpointTimeout(0, 120_000), { timeoutSeconds: 120, deadlineMs: 120_000 });
  assert.deepEqual(checkpointTimeout(30, 120_000), { timeoutSeconds: 120, deadlineMs: 120_000 });
  assert.deepEqual(checkpointTimeout(120, 120_000), { timeoutSeconds: 120, deadlineMs: 120_000 });
  assert.deepEqual(checkpointTimeout(300, 120_000), { timeoutSeconds: 300, deadlineMs: 300_000 });
  assert.deepEqual(checkpointTimeout(-1, 120_000), { error: 'CheckpointContainer requires the timeout value to be > 0' });
});

test('the checkpoints directory is made 0700, and tightened when it was looser', async t => {
  const root = await mkdtemp(join(tmpdir(), 'checkpoint-dir-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  assert.equal(((await stat(await ensureCheckpointsDir(root))).mode & 0o777), 0o700);
  const other = join(root, 'other');
  await mkdir(join(other, 'checkpoints'), { recursive: true, mode: 0o755 });
  assert.equal(((await stat(await ensureCheckpointsDir(other))).mode & 0o777), 0o700);
});

test('the checkpointer asks the runtime for the location with the timeout and deadline, and words failures as the kubelet', async t => {
  const root = await mkdtemp(join(tmpdir(), 'checkpoint-cri-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const calls: Array<{ req: unknown; deadlineMs: number | undefined }> = [];
  let fail: Error | undefined;
  const cri = { async checkpointContainer(req: unknown, deadlineMs?: number) { calls.push({ req, deadlineMs }); if (fail) throw fail; return {}; } } as unknown as CriClient;
  const at = new Date('2026-01-02T03:04:05Z');
  const cp = checkpointer({ cri, rootDir: root, defaultTimeoutMs: 120_000, now: () => at });
  const req = { namespace: 'ns', pod: 'p', container: 'c', containerId: 'abc', timeoutSeconds: 0 };

  const ok = await cp.checkpoint(req);
  const location = checkpointLocation(root, 'ns', 'p', 'c', at);
  assert.deepEqual(ok, { location });
  assert.deepEqual(calls.pop(), { req: { containerId: 'abc', location, timeout: 120 }, deadlineMs: 120_000 });
  assert.equal(((await stat(join(root, 'checkpoints'))).mode & 0o777), 0o700);

  await cp.checkpoint({ ...req, timeoutSeconds: 600 });
  assert.deepEqual(calls.pop(), { req: { containerId: 'abc', location, timeout: 600 }, deadlineMs: 600_000 });

  // no running instance: the runtime is not asked
  assert.deepEqual(await cp.checkpoint({ ...req, containerId: undefined }), { error: 'container c not found' });
  assert.deepEqual(await cp.checkpoint({ ...req, timeoutSeconds: -5 }), { error: 'CheckpointContainer requires the timeout value to be > 0' });
  assert.equal(calls.length, 0);

  fail = new CriError('checkpointContainer', 12, 'method CheckpointContainer not implemented');
  assert.deepEqual(await cp.checkpoint(req), { error: 'rpc error: code = Unimplemented desc = method CheckpointContainer not implemented' });
});
