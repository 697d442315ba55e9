import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, silentLogger } from '../../../src/api/log.ts';
import { agentFeatureGates, agentFeatureSpecs, declaredFeatures, featureGateProblems, featureGates } from '../../../src/agent/features.ts';
import { featureGatesFromFlag } from '../../../src/cli/feature-gates-flag.ts';
import { startAgent } from '../../../src/agent/agent.ts';
import { defaultAgentConfig } from '../../../src/agent/config/defaults.ts';
import type { HostFiles } from '../../../src/agent/machine/host-files.ts';

/** the configuration file's defaults for an agent with no API server: no token or access reviews, as a standalone kubelet needs */
function standaloneConfig() {
  const c = defaultAgentConfig();
  return { ...c, authentication: { ...c.authentication, webhook: { ...c.authentication.webhook, enabled: false } }, authorization: { ...c.authorization, mode: 'AlwaysAllow' } };
}

const swapOn: HostFiles = {
  read: async p => (p === 'proc/swaps' ? 'Filename\tType\tSize\tUsed\tPriority\n/swapfile file 1048572 0 -2\n' : p === 'proc/meminfo' ? 'MemTotal: 1024 kB\n' : undefined),
  list: async () => [],
};

test('swap that is on stops start-up unless failSwapOn is false', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-start-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const settings = { ...standaloneConfig(), address: '127.0.0.1', port: 0, healthzPort: 0 };
  const runtime = { state: async () => ({ notReadyReasons: [], version: '' }) };
  const base = { rootDir: dir, certDir: join(dir, 'pki'), runtime, log: silentLogger, hostFiles: swapOn, env: {} };
  await assert.rejects(startAgent({ ...base, settings }), /failed to run Kubelet: running with swap on is not supported, please disable swap or set --fail-swap-on flag to false/);
  // the file's defaults (token webhook, Webhook authorization) need an API server to ask
  await assert.rejects(startAgent({ ...base, settings: { ...defaultAgentConfig(), address: '127.0.0.1', port: 0, healthzPort: 0, failSwapOn: false } }), { message: 'failed to run Kubelet: no client provided, cannot use webhook authentication' });
  const agent = await startAgent({ ...base, settings: { ...settings, failSwapOn: false } });
  assert.ok(agent.port > 0);
  assert.deepEqual(agent.health.failures(), []);
  await agent.stop();
});

test('featureGates: SystemdWatchdog off starts no watchdog; NodeDeclaredFeatures off declares nothing', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-gates-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const runtime = { state: async () => ({ notReadyReasons: [], version: '' }) };
  const hostFiles: HostFiles = { read: async p => (p === 'proc/meminfo' ? 'MemTotal: 1024 kB\n' : undefined), list: async () => [] };
  // (a notify socket nobody listens on: only whether the watchdog starts is looked at)
  const env = { NOTIFY_SOCKET: join(dir, 'none.sock'), WATCHDOG_USEC: '20000000' };
  for (const on of [true, false]) {
    const lines: Array<{ msg: string; SystemdWatchdog?: boolean }> = [];
    const settings = { ...standaloneConfig(), address: '127.0.0.1', port: 0, healthzPort: 0, featureGates: { SystemdWatchdog: on } };
    const agent = await startAgent({ rootDir: dir, certDir: join(dir, 'pki'), runtime, log: createLogger('debug', l => lines.push(JSON.parse(l)), { format: 'json' }), hostFiles, env, settings });
    await agent.stop();
    assert.equal(lines.some(l => l.msg === 'systemd watchdog enabled'), on, `SystemdWatchdog=${on}`);
    assert.equal(lines.find(l => l.msg === 'feature gates')?.SystemdWatchdog, on, 'the effective gates are logged');
  }
  assert.deepEqual(declaredFeatures(featureGates({})), ['ContainerCheckpoint', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority', 'KubeletEnsureSecretPulledImages', 'KubeletPodResourcesGet', 'NodeDeclaredFeatures', 'SystemdWatchdog']);
  assert.deepEqual(declaredFeatures(featureGates({ SystemdWatchdog: false, ContainerCheckpoint: false, KubeletPodResourcesGet: false, GracefulNodeShutdown: false, GracefulNodeShutdownBasedOnPodPriority: false, KubeletEnsureSecretPulledImages: false })), ['NodeDeclaredFeatures']);
  assert.deepEqual(declaredFeatures(featureGates({ NodeDeclaredFeatures: false })), []);
  // AllBeta turns on every beta gate orch implements, never one it lacks
  assert.deepEqual(declaredFeatures(featureGates({ AllBeta: true })), ['ContainerCheckpoint', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority', 'KubeletEnsureSecretPulledImages', 'KubeletPodResourcesGet', 'NodeDeclaredFeatures', 'SystemdWatchdog']);
});

test('featureGates that cannot be honoured stop the start in the kubelet\'s words', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-gates-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const runtime = { state: async () => ({ notReadyReasons: [], version: '' }) };
  const hostFiles: HostFiles = { read: async p => (p === 'proc/meminfo' ? 'MemTotal: 1024 kB\n' : undefined), list: async () => [] };
  const start = (featureGates: Record<string, boolean>) => startAgent({ rootDir: dir, certDir: join(dir, 'pki'), runtime, log: silentLogger, hostFiles, env: {}, settings: { ...standaloneConfig(), address: '127.0.0.1', port: 0, healthzPort: 0, featureGates } });
  const prefix = 'failed to set feature gates from initial flags-based config: ';
  await assert.rejects(start({ Foo: true }), { message: `${prefix}unrecognized feature gate: Foo` });
  await assert.rejects(start({ NodeSwap: false }), { message: `${prefix}cannot set feature gate NodeSwap to false, feature is locked to true` });
  // --feature-gates refuses a locked gate before the start, in the flag parser's words
  assert.throws(() => featureGatesFromFlag('NodeSwap=false', agentFeatureSpecs()), { message: 'invalid argument "NodeSwap=false" for "--feature-gates" flag: cannot set feature gate NodeSwap to false, feature is locked to true' });
  assert.throws(() => featureGatesFromFlag('Nope=true', agentFeatureSpecs()), { message: 'invalid argument "Nope=true" for "--feature-gates" flag: unrecognized feature gate: Nope' });
  // off is what orch does anyway: accepted
  const agent = await start({ PodInfoAPI: false, KubeletEnsureSecretPulledImages: false, NodeSwap: true });
  await agent.stop();
});

test('every gate the agent knows is honoured or refused: none is accepted and ignored', () => {
  // the gates whose value is checked in the tests above; a gate added to the table needs one
  // (PodInfoAPI: test/e2e/pod-info-sim.test.ts, the socket offered or not; KubeletPodResourcesGet:
  // test/unit/agent/podresources/server.test.ts, Get answering or disabled; GracefulNodeShutdown and
  // GracefulNodeShutdownBasedOnPodPriority: test/unit/agent/config/validate-shutdown.test.ts, the
  // fields refused without them, and shutdown/plan.test.ts, the ranges without the second)
  // (KubeletEnsureSecretPulledImages: test/unit/agent/pods/images.test.ts, with and without the pull manager)
  const behaviourTested = new Set(['SystemdWatchdog', 'NodeDeclaredFeatures', 'PodInfoAPI', 'ContainerCheckpoint', 'KubeletPodResourcesGet', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority', 'KubeletEnsureSecretPulledImages']);
  for (const [name, g] of Object.entries(agentFeatureGates)) {
    const flipped = !g.default;
    if (g.lockToDefault || (flipped && !g.implemented)) {
      assert.equal(featureGateProblems({ [name]: flipped }).length, 1, `${name}=${flipped} is refused`);
      assert.deepEqual(featureGateProblems({ [name]: g.default }), [], `${name}=${g.default} is accepted`);
    } else {
      assert.ok(g.implemented && behaviourTested.has(name), `${name} changes behaviour when set to ${flipped}: add it to a test`);
      assert.notEqual(featureGates({ [name]: flipped }).enabled(name), featureGates({}).enabled(name), name);
    }
  }
});
