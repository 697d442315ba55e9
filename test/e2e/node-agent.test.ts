// `orch agent` against `orch server`: registration, status and lease, the agent's endpoint,
// and what the control plane does when the agent goes quiet (conditions Unknown, taints,
// evictions) and comes back. Periods are shortened by flags and configuration.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { parse } from 'yaml';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { startAgentProcess, type AgentProcess } from './support/agent-process.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';
import { skipForMissing } from '../support/requires.ts';

const getJson = async (c: RawClient, path: string) => { const r = await c.request('GET', path); assert.equal(r.status, 200, r.body); return r.json(); };
const condition = (node: any, type: string) => node.status?.conditions?.find((x: any) => x.type === type);
const taintKeys = (node: any) => (node.spec?.taints ?? []).map((t: any) => `${t.key}:${t.effect}`).sort();

/** GET on the agent's endpoint, with the kubeconfig's client certificate or without one */
function agentGet(port: number, path: string, kubeconfig?: string): Promise<{ status: number; body: string }> {
  const user = kubeconfig ? parse(readFileSync(kubeconfig, 'utf8')).users[0].user : undefined;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, ...(user ? { cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) } : {}) }, res => {
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const fastAgent = { nodeStatusUpdateFrequency: '1s', nodeLeaseDurationSeconds: 4 };
const serverArgs = ['--node-monitor-grace-period=4s', '--node-monitor-period=300ms'];

// three clusters side by side: their waits are the control plane's grace periods
suite('orch agent against orch server', { concurrency: true }, () => {
  test('a node with a real runtime: Ready, described, heartbeating; quiet → Unknown, tainted, evicted; back → healed', async t => {
    const skip = containerdSkipReason();
    if (skip) return t.skip(skipForMissing(skip));
    const runtime = await startContainerd();
    t.after(() => runtime.stop());
    const orch: OrchProcess = await startOrch({ args: serverArgs });
    t.after(async () => { await orch.stop(); await orch.cleanup(); });
    const c = rawClient(orch.kubeconfig);
    const name = `e2e-node-${process.pid}`;
    const agentArgs = ['--hostname-override', name, '--node-labels', 'tier=test,zone=a', '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint];
    let agent: AgentProcess = await startAgentProcess({ kubeconfig: orch.kubeconfig, args: agentArgs, config: fastAgent });
    t.after(async () => { await agent.kill(); await agent.cleanup(); });

    const node = await until('the node to be Ready', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`); return condition(n, 'Ready')?.status === 'True' && n; });
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], name);
    assert.equal(node.metadata.labels['kubernetes.io/os'], 'linux');
    assert.equal(node.metadata.labels.tier, 'test');
    assert.deepEqual(node.status.addresses, [{ type: 'InternalIP', address: '127.0.0.1' }, { type: 'Hostname', address: name }]);
    assert.match(node.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\//);
    assert.equal(node.status.nodeInfo.kubeletVersion, 'v1.36.0-orch');
    assert.ok(Number(node.status.capacity.pods) === 110 && node.status.allocatable.memory && node.status.capacity['ephemeral-storage']);
    assert.deepEqual(['DiskPressure', 'MemoryPressure', 'NetworkUnavailable', 'PIDPressure', 'Ready'], node.status.conditions.map((x: any) => x.type).sort());
    assert.equal(node.status.daemonEndpoints.kubeletEndpoint.Port, agent.port);

    for (const k of kubectls()) {
      const get = await kubectl(k.path, orch.kubeconfig, ['get', 'nodes', name]);
      assert.equal(get.code, 0, get.stderr);
      assert.match(get.stdout, new RegExp(`^${name}\\s+Ready\\s+<none>\\s+\\S+\\s+v1\\.36\\.0-orch`, 'm'), `${k.label}: ${get.stdout}`);
      const describe = await kubectl(k.path, orch.kubeconfig, ['describe', 'node', name]);
      assert.equal(describe.code, 0, describe.stderr);
      for (const want of [/InternalIP:\s+127\.0\.0\.1/, new RegExp(`Hostname:\\s+${name}`), /Capacity:[\s\S]*cpu:/, /Allocatable:[\s\S]*memory:/, /Kernel Version:/, /Container Runtime Version:\s+containerd:\/\//, /Ready\s+True\s.*KubeletReady\s+kubelet is posting ready status/]) {
        assert.match(describe.stdout, want, `${k.label} describe`);
      }
    }

    // the lease renews every quarter of its 4 s duration
    const lease1 = await getJson(c, `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`);
    assert.equal(lease1.spec.holderIdentity, name);
    assert.equal(lease1.spec.leaseDurationSeconds, 4);
    assert.equal(lease1.metadata.ownerReferences[0].kind, 'Node');
    await until('a lease renewal', async () => (await getJson(c, `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`)).spec.renewTime !== lease1.spec.renewTime, 5000);

    // the endpoint: only clients with a certificate from the cluster CA
    assert.equal((await agentGet(agent.port, '/healthz')).status, 401);
    const healthz = await agentGet(agent.port, '/healthz?verbose', orch.kubeconfig);
    assert.equal(healthz.status, 200);
    assert.match(healthz.body, /\[\+\]ping ok[\s\S]*\[\+\]syncloop ok[\s\S]*kernel[\s\S]*healthz check passed/);

    // pods on the node: one tolerates unreachable for 1 s, one for ever, one has the 300 s default
    const pod = (podName: string, tolerations?: unknown[]) => JSON.stringify({ metadata: { name: podName }, spec: { nodeName: name, containers: [{ name: 'c', image: 'busybox' }], ...(tolerations ? { tolerations } : {}) } });
    const unreachable = 'node.kubernetes.io/unreachable';
    for (const [podName, tol] of [['brief', [{ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }]], ['forever', [{ key: unreachable, operator: 'Exists', effect: 'NoExecute' }]], ['default', undefined]] as const) {
      const r = await c.request('POST', '/api/v1/namespaces/default/pods', { body: pod(podName, tol as unknown[] | undefined) });
      assert.equal(r.status, 201, r.body);
    }
    const defaulted = await getJson(c, '/api/v1/namespaces/default/pods/default');
    assert.ok(defaulted.spec.tolerations.some((x: any) => x.key === unreachable && x.tolerationSeconds === 300));

    await agent.kill();
    const quiet = await until('Ready to turn Unknown', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`); return condition(n, 'Ready')?.status === 'Unknown' && n; }, 20_000);
    assert.equal(condition(quiet, 'Ready').reason, 'NodeStatusUnknown');
    assert.equal(condition(quiet, 'Ready').message, 'Kubelet stopped posting node status.');
    assert.equal(condition(quiet, 'MemoryPressure').status, 'Unknown');
    const tainted = await until('unreachable taints', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`); return taintKeys(n).includes(`${unreachable}:NoExecute`) && n; }, 10_000);
    assert.deepEqual(taintKeys(tainted), [`${unreachable}:NoExecute`, `${unreachable}:NoSchedule`]);
    for (const k of kubectls().slice(0, 1)) {
      const get = await kubectl(k.path, orch.kubeconfig, ['get', 'nodes', name]);
      assert.match(get.stdout, new RegExp(`^${name}\\s+NotReady\\s`, 'm'), get.stdout);
    }
    const evicted = await until('the briefly tolerating pod to be evicted', async () => { const p = await getJson(c, '/api/v1/namespaces/default/pods/brief'); return p.metadata.deletionTimestamp && p; }, 10_000);
    assert.ok(evicted.status.conditions.some((x: any) => x.type === 'DisruptionTarget' && x.reason === 'DeletionByTaintManager'));
    await new Promise(r => setTimeout(r, 1500));
    assert.equal((await getJson(c, '/api/v1/namespaces/default/pods/forever')).metadata.deletionTimestamp, undefined);
    assert.equal((await getJson(c, '/api/v1/namespaces/default/pods/default')).metadata.deletionTimestamp, undefined);
    const events = await getJson(c, '/api/v1/namespaces/default/events');
    // one eviction, one event (the condition it writes first must not start a second)
    assert.equal(events.items.filter((e: any) => e.reason === 'TaintManagerEviction' && e.involvedObject.name === 'brief').length, 1);

    // back: the same node heals
    agent = await startAgentProcess({ kubeconfig: orch.kubeconfig, args: agentArgs, config: fastAgent, rootDir: agent.rootDir, port: agent.port });
    const healed = await until('the node to heal', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`); return condition(n, 'Ready')?.status === 'True' && taintKeys(n).length === 0 && n; }, 20_000);
    assert.equal(healed.metadata.uid, node.metadata.uid, 'the node was taken over, not recreated');

    // cordon: SchedulingDisabled in kubectl, a NoSchedule taint, no condition
    const k = kubectls()[0];
    if (k) {
      assert.equal((await kubectl(k.path, orch.kubeconfig, ['cordon', name])).code, 0);
      await until('SchedulingDisabled', async () => /Ready,SchedulingDisabled/.test((await kubectl(k.path, orch.kubeconfig, ['get', 'nodes', name])).stdout));
      await until('the unschedulable taint', async () => taintKeys(await getJson(c, `/api/v1/nodes/${name}`)).includes('node.kubernetes.io/unschedulable:NoSchedule'));
      assert.equal((await kubectl(k.path, orch.kubeconfig, ['uncordon', name])).code, 0);
      await until('the taint to go', async () => taintKeys(await getJson(c, `/api/v1/nodes/${name}`)).length === 0);
    }
  });

  test('a node whose runtime is down reports NotReady with the reason, and is tainted not-ready past the grace period', async t => {
    const orch = await startOrch({ args: serverArgs });
    t.after(async () => { await orch.stop(); await orch.cleanup(); });
    const c = rawClient(orch.kubeconfig);
    const name = `e2e-noruntime-${process.pid}`;
    const agent = await startAgentProcess({ kubeconfig: orch.kubeconfig, args: ['--hostname-override', name, '--container-runtime-endpoint', 'unix:///nonexistent/orch-test.sock'], config: fastAgent });
    t.after(async () => { await agent.kill(); await agent.cleanup(); });
    const node = await until('the node to register', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`).catch(() => undefined); return condition(n, 'Ready') && n; });
    assert.deepEqual([condition(node, 'Ready').status, condition(node, 'Ready').reason, condition(node, 'Ready').message], ['False', 'KubeletNotReady', 'container runtime is down']);
    const tainted = await until('not-ready taints', async () => { const n = await getJson(c, `/api/v1/nodes/${name}`); return taintKeys(n).length === 2 && n; }, 15_000);
    assert.deepEqual(taintKeys(tainted), ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule']);
  });

  test('standalone agents: the lock file admits one; a bad drop-in stops start-up naming the file and field; --help', async t => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { execFile } = await import('node:child_process');
    const { repoRoot } = await import('./support/orch-process.ts');
    const run = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>(r => execFile(join(repoRoot, 'bin/orch'), args, { timeout: 30_000 }, (err, stdout, stderr) => r({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) })));
    const dir = await mkdtemp(join(tmpdir(), 'orch-standalone-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const lockFile = join(dir, 'agent.lock');

    // standalone: no API server to ask, so no token or access reviews (as a standalone kubelet is configured)
    const first = await startAgentProcess({ args: ['--lock-file', lockFile, '--hostname-override', 'standalone-1'], config: { authentication: { webhook: { enabled: false } }, authorization: { mode: 'AlwaysAllow' } } });
    t.after(async () => { await first.kill(); await first.cleanup(); });
    assert.equal((await agentGet(first.port, '/healthz')).status, 401, 'no CA given: nobody is let in');
    const second = await run(['agent', '--lock-file', lockFile, '--root-dir', join(dir, 'r2')]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /unable to acquire the lock file ".*agent\.lock": another agent holds it/);

    await mkdir(join(dir, 'conf.d'));
    await writeFile(join(dir, 'conf.d', '50-bad.conf'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: 10s\nbogusField: 1\n');
    const bad = await run(['agent', '--config-dir', join(dir, 'conf.d'), '--root-dir', join(dir, 'r3')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /50-bad\.conf": strict decoding error: unknown field "bogusField"/);

    const help = await run(['agent', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--config-dir[\s\S]*--lock-file[\s\S]*--exit-on-lock-contention/);
  });
});
