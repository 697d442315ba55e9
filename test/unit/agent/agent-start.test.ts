import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, silentLogger } from '../../../src/api/log.ts';
import { declaredFeatures, featureGates } from '../../../src/agent/features.ts';
import { startAgent } from '../../../src/agent/agent.ts';
import { defaultAgentConfig } from '../../../src/agent/config/defaults.ts';
import type { HostFiles } from '../../../src/agent/machine/host-files.ts';

const swapOn: HostFiles = {
  read: async p => (p === 'proc/swaps' ? 'Filename\tType\tSize\tUsed\tPriority\n/swapfile file 1048572 0 -2\n' : p === 'proc/meminfo' ? 'MemTotal: 1024 kB\n' : undefined),
  list: async () => [],
};

test('swap that is on stops start-up unless failSwapOn is false', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-start-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const settings = { ...defaultAgentConfig(), address: '127.0.0.1', port: 0, healthzPort: 0 };
  const runtime = { state: async () => ({ notReadyReasons: [], version: '' }) };
  const base = { rootDir: dir, certDir: join(dir, 'pki'), runtime, log: silentLogger, hostFiles: swapOn, env: {} };
  await assert.rejects(startAgent({ ...base, settings }), /failed to run Kubelet: running with swap on is not supported, please disable swap or set --fail-swap-on flag to false/);
  const agent = await startAgent({ ...base, settings: { ...settings, failSwapOn: false } });
  assert.ok(agent.port > 0);
  assert.deepEqual(agent.health.failures(), []);
  await agent.stop();
});

test('featureGates: SystemdWatchdog off starts no watchdog; gates for features orch lacks stay off and are not declared', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-gates-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const runtime = { state: async () => ({ notReadyReasons: [], version: '' }) };
  const hostFiles: HostFiles = { read: async p => (p === 'proc/meminfo' ? 'MemTotal: 1024 kB\n' : undefined), list: async () => [] };
  // (a notify socket nobody listens on: only whether the watchdog starts is looked at)
  const env = { NOTIFY_SOCKET: join(dir, 'none.sock'), WATCHDOG_USEC: '20000000' };
  for (const on of [true, false]) {
    const lines: Array<{ msg: string }> = [];
    const settings = { ...defaultAgentConfig(), address: '127.0.0.1', port: 0, healthzPort: 0, featureGates: { SystemdWatchdog: on, ContainerCheckpoint: true } };
    const agent = await startAgent({ rootDir: dir, certDir: join(dir, 'pki'), runtime, log: createLogger('debug', l => lines.push(JSON.parse(l))), hostFiles, env, settings });
    await agent.stop();
    assert.equal(lines.some(l => l.msg === 'systemd watchdog enabled'), on, `SystemdWatchdog=${on}`);
    assert.ok(lines.some(l => /does not implement/.test(l.msg)), 'the unimplemented gate is named');
  }
  const gates = featureGates({ ContainerCheckpoint: true, KubeletPodInfoAPI: true });
  assert.equal(gates.enabled('ContainerCheckpoint'), false);
  assert.deepEqual(gates.unimplemented, ['ContainerCheckpoint', 'KubeletPodInfoAPI']);
  assert.deepEqual(declaredFeatures(gates), ['NodeDeclaredFeatures', 'SystemdWatchdog']);
  assert.deepEqual(declaredFeatures(featureGates({ SystemdWatchdog: false })), ['NodeDeclaredFeatures']);
});
