// `orch up --sim-nodes N`: simulated nodes beside the real node agent of `orch up` in one
// cluster, as kubectl sees them; pods meant for simulated nodes run there, and a pod that asks
// for the real node by its hostname label runs on the agent.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { requires } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';

test('simulated and real nodes mix in one cluster', requires(!kubectls().length && 'kubectl not installed'), async t => {
  const dir = await mkdtemp(join(tmpdir(), 'up-sim-nodes-'));
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', join(dir, 'data'), '--port', '0', '--agent-port', '0', '--runtime', 'sim', '--dns-port', '0', '--sim-nodes', '3', '--sim-node-prefix', 'fake'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  t.after(async () => { child.kill('SIGINT'); await exited; await rm(dir, { recursive: true, force: true }); });
  await Promise.race([until('orch up Ready with its simulated nodes', async () => /^node \S+ Ready/m.test(out) && /^3 simulated nodes registered/m.test(out), 60_000), exited.then(() => { throw new Error(`orch up exited: ${err}`); })]);
  const real = /^node (\S+) Ready/m.exec(out)![1]!;
  const kubeconfig = join(dir, 'data', 'admin.kubeconfig');
  const k = kubectls()[0]!.path;

  const nodes = await until('four Ready nodes', async () => {
    const r = await kubectl(k, kubeconfig, ['get', 'nodes', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,SIM:.metadata.labels.orch\\.io/simulated-node']);
    const rows = r.stdout.trim().split('\n').map(l => l.trim().split(/\s+/));
    return rows.length === 4 && rows.every(x => x[1] === 'True') && rows;
  }, 30_000);
  assert.deepEqual(nodes.map(x => `${x[0]} ${x[2]}`).sort(), ['fake-0 true', 'fake-1 true', 'fake-2 true', `${real} <none>`].sort());

  const objects = [
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'sim' }, spec: { replicas: 4, selector: { matchLabels: { app: 'sim' } }, template: { metadata: { labels: { app: 'sim' } }, spec: { nodeSelector: { 'orch.io/simulated-node': 'true' }, containers: [{ name: 'c', image }] } } } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'on-real' }, spec: { nodeSelector: { 'kubernetes.io/hostname': real }, containers: [{ name: 'c', image, command: ['sh', '-c', 'echo hello from the agent; sleep 3600'] }] } },
  ];
  const applied = await kubectl(k, kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  assert.equal(applied.code, 0, applied.stderr);
  const client = createClient(await loadKubeconfig(kubeconfig));
  t.after(() => client.close());
  const sims = await until('the simulated pods Running', async () => {
    const items = (await client.list('/api/v1/namespaces/default/pods', { labelSelector: 'app=sim' })).items;
    return items.length === 4 && items.every((p: any) => p.status?.phase === 'Running') && items;
  }, 30_000);
  for (const p of sims) assert.match(p.spec.nodeName, /^fake-[0-2]$/);
  const onReal = await until('the pod on the real node Running', async () => { const p = await client.get('/api/v1/namespaces/default/pods/on-real'); return p.status?.phase === 'Running' && p; }, 30_000);
  assert.equal(onReal.spec.nodeName, real);
  // the agent ran it: its log is there, which a simulated node never has
  const logs = await until('its log', async () => { const r = await kubectl(k, kubeconfig, ['logs', 'on-real']); return r.stdout.includes('hello from the agent') && r.stdout; }, 15_000);
  assert.equal(logs.trim(), 'hello from the agent');
});
