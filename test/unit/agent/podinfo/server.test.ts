import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/api/log.ts';
import { localPods } from '../../../../src/agent/podinfo/local-pods.ts';
import { podInfoSocket, startPodInfoServer } from '../../../../src/agent/podinfo/server.ts';

test('the socket: a file left by an earlier run is replaced by a socket only root may use, removed at stop', { skip: process.platform !== 'linux' && 'Linux only' }, async t => {
  const root = await mkdtemp(join(tmpdir(), 'podinfo-sock-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const path = podInfoSocket(root);
  assert.equal(path, join(root, 'pods', 'agent.sock'));
  await mkdir(join(root, 'pods'));
  await writeFile(path, 'stale');
  const view = localPods({ pods: () => [], statusOf: () => undefined, onStatus: () => () => undefined, synced: () => true });
  const server = await startPodInfoServer({ rootDir: root, view, log: createLogger('error') });
  const st = await stat(path);
  assert.ok(st.isSocket(), 'a UNIX socket where the stale file was');
  assert.equal(st.mode & 0o777, 0o600);
  await server.stop();
  await assert.rejects(stat(path), { code: 'ENOENT' });
});
