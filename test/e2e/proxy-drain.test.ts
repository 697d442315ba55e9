// Issue 22's proxies and drain against `orch up` on the simulated runtime, with kubectl 1.33 and
// 1.27: nodes/proxy to the real agent (/healthz, /stats/summary, /metrics/resource, /pods);
// services/proxy to a Service of a hostNetwork pod, its port an HTTP server of this test on the
// node's address, a WebSocket through it (Node's WebSocket client, via
// `kubectl proxy`, which upgrades to orch over TLS); `kubectl proxy` in front of orch; `kubectl drain`
// refusing DaemonSet pods without --ignore-daemonsets, blocked by a PodDisruptionBudget with
// maxUnavailable 0 and let through once the budget is relaxed; the Python client's proxy and
// eviction calls.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipForMissing } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const loop = ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];
const image = 'registry.local/app:1.0';

async function up(dataDir: string, t: { after(fn: () => unknown): void }): Promise<string> {
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', dataDir, '--port', '0', '--agent-port', '0', '--runtime', 'sim'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  t.after(async () => { child.kill('SIGINT'); await exited; });
  const ready = await Promise.race([
    until('orch up Ready', async () => /^node (\S+) Ready/m.exec(out)?.[1], 60_000),
    exited.then(() => { throw new Error(`orch up exited: ${err}`); }),
  ]);
  return ready;
}

function freePort(): Promise<number> {
  return new Promise(resolve => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, res => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject);
  });
}

/** a WebSocket endpoint that echoes each (small, masked) client frame back unmasked */
function echoWebSocket(server: http.Server): void {
  server.on('upgrade', (req, socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.on('data', (frame: Buffer) => {
      const opcode = frame[0]! & 0x0f;
      const len = frame[1]! & 0x7f;
      if (opcode === 8 || len > 125) { socket.end(); return; }
      const mask = frame.subarray(2, 6);
      const payload = Buffer.from(frame.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4]!));
      socket.write(Buffer.concat([Buffer.from([0x80 | opcode, len]), payload]));
    });
  });
}

async function nodeProxy(c: RawClient, node: string): Promise<void> {
  const base = `/api/v1/nodes/${node}/proxy`;
  const health = await c.request('GET', `${base}/healthz`);
  assert.equal(health.status, 200, health.body);
  assert.equal(health.body, 'ok');
  const summary = await c.request('GET', `${base}/stats/summary`);
  assert.equal(summary.status, 200, summary.body);
  assert.equal(summary.json().node.nodeName, node);
  const metrics = await c.request('GET', `${base}/metrics/resource`);
  assert.match(metrics.body, /^node_cpu_usage_seconds_total/m);
  const pods = await c.request('GET', `${base}/pods`);
  assert.equal(pods.json().kind, 'PodList');
  const missing = await c.request('GET', '/api/v1/nodes/no-such-node/proxy/healthz');
  assert.equal(missing.status, 404);
  assert.equal(missing.json().message, 'nodes "no-such-node" not found');
}

/**
 * A Deployment's hostNetwork pod (its IP the node's) behind a Service: the EndpointSlice controller names the
 * pod in the endpoint, as kube-apiserver's service proxy requires, and the port is the test's
 * own server listening on the node's address (the simulated runtime runs no real process).
 */
async function hostNetworkService(kubeconfig: string, k: string, port: number): Promise<void> {
  const manifest = {
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'outside' }, spec: { selector: { app: 'outside' }, ports: [{ name: 'http', port: 80, targetPort: port }] } },
      {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'outside' },
        spec: { selector: { matchLabels: { app: 'outside' } }, template: { metadata: { labels: { app: 'outside' } }, spec: { hostNetwork: true, containers: [{ name: 'c', image, command: loop }] } } },
      },
    ],
  };
  const r = await kubectl(k, kubeconfig, ['apply', '-f', '-'], JSON.stringify(manifest));
  assert.equal(r.code, 0, r.stderr);
}

async function drain(kubeconfig: string, k: { label: string; path: string }, node: string): Promise<void> {
  const v = k.label.replace(/\W/g, '');
  const run = async (args: string[], input?: string) => { const r = await kubectl(k.path, kubeconfig, args, input); assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`); return r.stdout; };
  const app = `guarded-${v}`;
  await run(['create', 'deployment', app, `--image=${image}`, '--replicas=1', '--', ...loop]);
  await run(['rollout', 'status', `deployment/${app}`, '--timeout=60s']);
  await run(['create', 'poddisruptionbudget', `pdb-${v}`, `--selector=app=${app}`, '--max-unavailable=0']);
  await until(`pdb-${v} observed`, async () => (await run(['get', 'pdb', `pdb-${v}`, '-o', 'jsonpath={.status.observedGeneration}/{.status.expectedPods}'])) === '1/1');

  // DaemonSet pods stop a drain that was not told to ignore them
  const refused = await kubectl(k.path, kubeconfig, ['drain', node, '--timeout=20s']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /cannot delete DaemonSet-managed Pods \(use --ignore-daemonsets to ignore\)/);

  const started = Date.now();
  const child = spawn(k.path, ['--kubeconfig', kubeconfig, 'drain', node, '--ignore-daemonsets', '--timeout=60s'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', d => { out += d; });
  child.stderr.on('data', d => { out += d; });
  const code = new Promise<number | null>(r => child.once('exit', r));
  try {
    await until('drain blocked by the budget', async () => out.includes("Cannot evict pod as it would violate the pod's disruption budget."), 30_000, 50);
    assert.match(out, /evicting pod default\/guarded-/);
    await run(['patch', 'pdb', `pdb-${v}`, '--type=merge', '-p', '{"spec":{"maxUnavailable":1}}']);
    assert.equal(await code, 0, out);
  } finally {
    child.kill();
  }
  assert.match(out, /pod\/guarded-\S+ evicted/);
  assert.match(out, new RegExp(`node/${node} drained`));
  console.log(`kubectl ${k.label} drain: blocked then drained in ${Date.now() - started} ms`);
  await run(['uncordon', node]);
  await run(['rollout', 'status', `deployment/${app}`, '--timeout=60s']);
}

test('proxies and drain against orch up (simulated runtime)', { timeout: 240_000 }, async t => {
  const versions = kubectls();
  if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
  const dir = await mkdtemp(join(tmpdir(), 'proxy-e2e-'));
  const dataDir = join(dir, 'data');
  // after-hooks run in the order they are added: orch up stops (and unmounts its pods' volumes)
  // before its data dir goes
  const node = await up(dataDir, t);
  t.after(() => rm(dir, { recursive: true, force: true }));
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const c = rawClient(kubeconfig);

  // the node's address, which a hostNetwork pod's IP is; a loopback one may not be an endpoint
  const nodeIp = (await c.request('GET', `/api/v1/nodes/${node}`)).json().status.addresses.find((a: { type: string }) => a.type === 'InternalIP')?.address;
  if (!nodeIp || nodeIp.startsWith('127.')) return t.skip(skipForMissing(`the node's address ${nodeIp} cannot be an endpoint`));
  const backend = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`backend saw ${req.method} ${req.url}`));
  echoWebSocket(backend);
  await new Promise<void>(r => backend.listen(0, nodeIp, r));
  t.after(() => { backend.closeAllConnections(); backend.close(); });
  // the service's pod, and a DaemonSet so that drain needs --ignore-daemonsets, start while nodes/proxy is checked
  await hostNetworkService(kubeconfig, versions[0]!.path, (backend.address() as net.AddressInfo).port);
  const ds = await kubectl(versions[0]!.path, kubeconfig, ['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agentd' },
    spec: { selector: { matchLabels: { app: 'agentd' } }, template: { metadata: { labels: { app: 'agentd' } }, spec: { containers: [{ name: 'c', image, command: loop }] } } },
  }));
  assert.equal(ds.code, 0, ds.stderr);

  await nodeProxy(c, node);
  for (const k of versions) {
    const r = await kubectl(k.path, kubeconfig, ['get', '--raw', `/api/v1/nodes/${node}/proxy/stats/summary`]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).node.nodeName, node, k.label);
  }

  await until('the pod a ready endpoint of outside', async () => {
    const got = await kubectl(versions[0]!.path, kubeconfig, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=outside', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].targetRef.name}']);
    return got.stdout.startsWith('outside-');
  }, 30_000, 100);
  for (const k of versions) {
    const r = await kubectl(k.path, kubeconfig, ['get', '--raw', '/api/v1/namespaces/default/services/outside:http/proxy/from-kubectl?v=1']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'backend saw GET /from-kubectl?v=1', k.label);
  }

  // kubectl proxy in front of orch: the API itself and a service behind it
  const port = await freePort();
  const proxy = spawn(versions[0]!.path, ['--kubeconfig', kubeconfig, 'proxy', `--port=${port}`], { stdio: 'ignore' });
  t.after(() => { proxy.kill(); });
  const viaProxy = `http://127.0.0.1:${port}`;
  const list = await until('kubectl proxy serving', async () => { const r = await get(`${viaProxy}/api/v1/namespaces`); return r.status === 200 && r; }, 15_000, 50);
  assert.ok(JSON.parse(list.body).items.some((n: { metadata: { name: string } }) => n.metadata.name === 'default'));
  const through = await get(`${viaProxy}/api/v1/namespaces/default/services/outside:http/proxy/twice`);
  assert.deepEqual(through, { status: 200, body: 'backend saw GET /twice' });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/namespaces/default/services/outside:http/proxy/echo`);
  const echoed = await new Promise<string>((resolve, reject) => {
    ws.onopen = () => ws.send('hello through two proxies');
    ws.onmessage = ev => resolve(String(ev.data));
    ws.onerror = () => reject(new Error('the WebSocket failed'));
  });
  ws.close();
  assert.equal(echoed, 'hello through two proxies');

  await until('the daemon pod runs', async () => (await kubectl(versions[0]!.path, kubeconfig, ['get', 'pods', '-l', 'app=agentd', '-o', 'jsonpath={.items[*].status.phase}'])).stdout === 'Running');

  // the Python client: services/proxy with a path, and an eviction its budget refuses
  if (await promisify(execFile)('/usr/bin/python3', ['-c', 'import kubernetes']).then(() => true, () => false)) {
    const run = async (args: string[], input?: string) => { const r = await kubectl(versions[0]!.path, kubeconfig, args, input); assert.equal(r.code, 0, r.stderr); return r.stdout; };
    await run(['create', 'poddisruptionbudget', 'daemon-guard', '--selector=app=agentd', '--min-available=1']);
    await until('daemon-guard observed', async () => (await run(['get', 'pdb', 'daemon-guard', '-o', 'jsonpath={.status.observedGeneration}/{.status.expectedPods}'])) === '1/1');
    const daemonPod = await run(['get', 'pods', '-l', 'app=agentd', '-o', 'jsonpath={.items[0].metadata.name}']);
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [join(import.meta.dirname, 'python/proxy_evict.py'), kubeconfig, 'outside:http', daemonPod], { timeout: 30_000 });
    assert.deepEqual(JSON.parse(stdout.trim().split('\n').pop()!), { proxied: 'backend saw GET /from-python', refused: [429, "Cannot evict pod as it would violate the pod's disruption budget."] });
  } else {
    t.diagnostic(skipForMissing('/usr/bin/python3 with the kubernetes module not installed (apt-get install python3-kubernetes)'));
  }

  for (const k of versions) await drain(kubeconfig, k, node);
});
