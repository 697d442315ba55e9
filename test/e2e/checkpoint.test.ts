// The agent's checkpoint endpoint, asked as `curl --cert` asks it (HTTPS with a client
// certificate of the cluster CA), with real processes: `orch agent` on `orch runtime-sim
// --checkpoint` for the archive, the same agent with the gate off (404), and an agent on
// containerd 1.6, which lacks the CRI call (500 saying so).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createCa, issueCert, type CertAndKey } from '../../src/pki/certs.ts';
import { connectCri, type CriClient } from '../../src/agent/cri/client.ts';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { startAgentProcess, type AgentProcess } from './support/agent-process.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';

const image = 'registry.local/ckpt:1.0';
const loop = ['sh', '-c', "trap 'exit 0' TERM; i=0; while true; do i=$((i+1)); echo $i; echo $i > /count; sleep 1; done"];

function post(port: number, path: string, client?: CertAndKey): Promise<{ code: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    // the agent's serving certificate is its own self-signed one here: like curl -k
    request({ host: '127.0.0.1', port, path, method: 'POST', ...(client ? { cert: client.cert, key: client.key } : {}), rejectUnauthorized: false }, res => {
      let body = '';
      res.on('data', d => { body += d; }).on('end', () => resolve({ code: res.statusCode!, type: String(res.headers['content-type']), body }));
    }).on('error', reject).end();
  });
}

async function staticPod(dir: string, name = 'web', annotations: Record<string, string> = {}): Promise<string> {
  const manifests = join(dir, 'manifests');
  await mkdir(manifests, { recursive: true });
  await writeFile(join(manifests, `${name}.yaml`), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations }, spec: { containers: [{ name: 'app', image, command: loop }] } }));
  return manifests;
}

/** the numbers a counter container has logged (CRI log lines "<time> stdout F <n>") */
async function counted(cri: CriClient, containerId: string): Promise<number[]> {
  const { status } = await cri.containerStatus({ containerId });
  return (await readFile(status!.logPath, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(l => Number(l.split(' ')[3]));
}

async function agentOn(endpoint: string, dir: string, caFile: string, node: string, extra: Record<string, unknown> = {}): Promise<AgentProcess> {
  return startAgentProcess({
    args: ['--container-runtime-endpoint', endpoint, '--hostname-override', node],
    config: { staticPodPath: await staticPod(dir), fileCheckFrequency: '1s', podLogsDir: join(dir, 'logs'), // a standalone agent (no API server to ask): certificates only, everyone they admit allowed,
    // as a standalone kubelet must be configured
    authentication: { x509: { clientCAFile: caFile }, webhook: { enabled: false } }, authorization: { mode: 'AlwaysAllow' }, ...extra },
  });
}

async function pki(dir: string): Promise<{ caFile: string; admin: CertAndKey; stranger: CertAndKey }> {
  const ca = await createCa('checkpoint-test-ca', 1);
  const caFile = join(dir, 'ca.crt');
  await writeFile(caFile, ca.cert);
  const admin = await issueCert(ca, { commonName: 'checkpoint-admin', organizations: ['system:masters'], days: 1, usage: 'client' });
  const stranger = await issueCert(await createCa('someone-else', 1), { commonName: 'checkpoint-admin', days: 1, usage: 'client' });
  return { caFile, admin, stranger };
}

// the two runtimes are independent: side by side, to keep the file's wall time short
describe('checkpoint', { concurrency: true }, () => {
/** `orch runtime-sim --checkpoint` as a process; stopped by the returned function */
async function simProcess(socket: string): Promise<() => Promise<void>> {
  const sim = spawn(join(repoRoot, 'bin/orch'), ['runtime-sim', '--socket', socket, '--checkpoint', '--preload-images', image], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise(r => sim.once('exit', r));
  let out = '';
  sim.stdout!.on('data', d => { out += d; });
  await Promise.race([until('runtime-sim serving', async () => out.includes('serving the CRI'), 15_000, 50), exited.then(() => { throw new Error('runtime-sim exited'); })]);
  return async () => { sim.kill('SIGTERM'); await exited; };
}

/** cleanups run last-registered first: agents before their runtime, the runtime before its directory */
function cleanups(t: { after(fn: () => Promise<void>): void }): (fn: () => unknown) => void {
  const stack: Array<() => unknown> = [];
  t.after(async () => { for (const fn of stack.reverse()) await fn(); });
  return fn => { stack.push(fn); };
}

test('checkpoint on the simulated runtime: 200 with the archive, 404s, the gate off', async t => {
  const later = cleanups(t);
  const dir = await mkdtemp(join(tmpdir(), 'checkpoint-e2e-'));
  later(() => rm(dir, { recursive: true, force: true }));
  const { caFile, admin, stranger } = await pki(dir);
  // one runtime per agent: an agent removes the pods it does not know from its runtime
  const socket = join(dir, 'sim.sock');
  const stops = await Promise.all([simProcess(socket), simProcess(join(dir, 'sim-off.sock'))]);
  for (const stop of stops) later(stop);

  // the second agent has the gate off; both start at once
  const [agent, off] = await Promise.all([
    agentOn(`unix://${socket}`, join(dir, 'a'), caFile, 'ckpt-node'),
    agentOn(`unix://${join(dir, 'sim-off.sock')}`, join(dir, 'b'), caFile, 'ckpt-off', { featureGates: { ContainerCheckpoint: false } }),
  ]);
  later(async () => { await Promise.all([agent.stop(), off.stop()]); await Promise.all([agent.cleanup(), off.cleanup()]); });
  const cri = await connectCri(`unix://${socket}`);
  later(() => cri.close());
  const running = await until('the static pod running', async () => (await cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } })).containers.find((c: any) => c.labels['io.kubernetes.pod.name'] === 'web-ckpt-node'));

  const path = '/checkpoint/default/web-ckpt-node/app';
  assert.equal((await post(agent.port, path)).code, 401, 'no client certificate');
  assert.equal((await post(agent.port, path, stranger)).code, 401, 'a certificate of another CA');
  assert.deepEqual(await post(agent.port, '/checkpoint/other/web-ckpt-node/app', admin), { code: 404, type: 'text/plain; charset=utf-8', body: 'pod does not exist' });
  assert.deepEqual(await post(agent.port, '/checkpoint/default/web-ckpt-node/nope', admin), { code: 404, type: 'text/plain; charset=utf-8', body: 'container nope does not exist' });

  const before = Date.now();
  const countedBefore = (await counted(cri, running.id)).length;
  const ok = await post(agent.port, `${path}?timeout=5`, admin);
  const countedAfter = (await counted(cri, running.id)).length;
  assert.equal(ok.code, 200, ok.body);
  assert.equal(ok.type, 'application/json');
  const { items } = JSON.parse(ok.body) as { items: string[] };
  assert.equal(items.length, 1);
  const archive = items[0]!;
  const checkpoints = join(agent.rootDir, 'checkpoints');
  assert.equal(dirname(archive), checkpoints);
  const m = /^checkpoint-web-ckpt-node_default-app-(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d))\.tar$/.exec(archive.slice(checkpoints.length + 1));
  assert.ok(m, archive);
  assert.ok(Math.abs(Date.parse(m[1]!) - before) < 5_000, `the archive is stamped with the time it was taken: ${m[1]}`);
  assert.equal(statSync(checkpoints).mode & 0o777, 0o700);
  assert.equal(statSync(archive).mode & 0o777, 0o600);
  assert.equal(statSync(archive).uid, process.getuid?.() ?? 0);
  assert.deepEqual(execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).trim().split('\n'), ['config.dump', 'spec.dump', 'status.dump', 'rootfs-diff.tar']);
  assert.equal(JSON.parse(execFileSync('tar', ['-xOf', archive, 'config.dump'], { encoding: 'utf8' })).id, running.id);
  assert.equal((await cri.containerStatus({ containerId: running.id })).status!.state, 'CONTAINER_RUNNING', 'the container keeps running');

  // restore: a pod annotated with the archive counts on from where the checkpoint was taken
  await staticPod(join(dir, 'a'), 'again', { 'orch.io/restore-from': archive });
  const again = await until('the restored pod running', async () => (await cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } })).containers.find((c: any) => c.labels['io.kubernetes.pod.name'] === 'again-ckpt-node'));
  const resumed = await until('the restored counter counting', async () => { const n = await counted(cri, again.id); return n.length > 0 && n; }, 10_000, 100);
  assert.ok(resumed[0]! > countedBefore && resumed[0]! <= countedAfter + 1, `restored at ${resumed[0]}, checkpointed between ${countedBefore} and ${countedAfter}`);

  // the gate off: the path does not exist, whatever the pod
  assert.deepEqual(await post(off.port, path, admin), { code: 404, type: 'text/plain; charset=utf-8', body: '404 page not found\n' });
});

test('checkpoint on containerd 1.6: 500 saying the runtime lacks CheckpointContainer', async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const later = cleanups(t);
  const dir = await mkdtemp(join(tmpdir(), 'checkpoint-ctrd-'));
  later(() => rm(dir, { recursive: true, force: true }));
  const { caFile, admin } = await pki(dir);
  const runtime = await startContainerd();
  later(() => runtime.stop());
  await importBusyboxImage(runtime, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const agent = await agentOn(runtime.endpoint, dir, caFile, 'ckpt-ctrd');
  later(async () => { await agent.stop(); await agent.cleanup(); });
  const cri = await connectCri(runtime.endpoint);
  later(() => cri.close());
  await until('the static pod running on containerd', async () => (await cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } })).containers.some((c: any) => c.labels['io.kubernetes.pod.name'] === 'web-ckpt-ctrd'));
  const res = await post(agent.port, '/checkpoint/default/web-ckpt-ctrd/app', admin);
  assert.deepEqual(res, { code: 500, type: 'text/plain; charset=utf-8', body: 'checkpointing of default/web-ckpt-ctrd/app failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)' });
});
});
