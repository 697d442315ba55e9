// Termination messages: the file's contents up to 4 KiB, else (FallbackToLogsOnError, a failure)
// the last 80 lines of the CRI log, up to 2 KiB.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newTerminationLog, terminationMessage } from '../../../../src/agent/pods/termination-message.ts';
import { TERMINATION_LOG_HOST, TERMINATION_MESSAGE_POLICY } from '../../../../src/agent/pods/cri-labels.ts';

test('the message file, capped at 4 KiB; the log tail only with FallbackToLogsOnError and a failure', async t => {
  const root = await mkdtemp(join(tmpdir(), 'orch-term-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const file = await newTerminationLog(root, 'u1', 'main');
  assert.equal((await stat(file)).mode & 0o777, 0o666);
  const log = join(root, 'c.log');
  await writeFile(log, Array.from({ length: 100 }, (_, i) => `2026-01-01T00:00:00.000000000Z stdout F line ${i}\n`).join(''));
  const on = (policy: string) => ({ [TERMINATION_LOG_HOST]: file, [TERMINATION_MESSAGE_POLICY]: policy });

  assert.equal(await terminationMessage(on('File'), 1, log), undefined, 'File policy: an empty file is no message');
  const fallback = await terminationMessage(on('FallbackToLogsOnError'), 1, log);
  assert.equal(fallback, Array.from({ length: 80 }, (_, i) => `line ${i + 20}\n`).join(''), 'the last 80 lines');
  assert.equal(await terminationMessage(on('FallbackToLogsOnError'), 0, log), undefined, 'a success never falls back');

  await writeFile(file, 'x'.repeat(5000));
  assert.equal((await terminationMessage(on('FallbackToLogsOnError'), 1, log))!.length, 4096, 'the file wins, capped');

  const long = join(root, 'long.log');
  await writeFile(long, Array.from({ length: 80 }, () => `2026-01-01T00:00:00Z stderr F ${'y'.repeat(99)}\n`).join(''));
  const emptyFile = await newTerminationLog(root, 'u1', 'main');
  const tail = await terminationMessage({ [TERMINATION_LOG_HOST]: emptyFile, [TERMINATION_MESSAGE_POLICY]: 'FallbackToLogsOnError' }, 2, long);
  assert.equal(Buffer.byteLength(tail!), 2048, 'the log tail, capped at 2 KiB');
});
