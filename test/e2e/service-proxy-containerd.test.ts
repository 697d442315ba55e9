// Issue 23's Service proxy and issue 24's in-cluster client, on `orch up` with its own
// containerd: busybox httpd pods behind a Deployment and a NodePort Service are reached through
// the ClusterIP and the node port from the host and from a pod; scaling moves the traffic; a
// Service without endpoints refuses connections; a pod reaches the API server through the
// `kubernetes` Service (10.96.0.1) with its service account token, and may list pods only once a
// RoleBinding lets it; a clean stop removes the rules. One cluster for the whole file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';
import { findNft, listNftTable } from '../../src/netfilter/nft.ts';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { holdHostNetwork } from '../support/host-network-lock.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { fetchFromHost, toolsImage, toolsImageName, toolsKubectl } from './support/tools-image.ts';

const kubectlBin = toolsKubectl;
const image = toolsImageName;

test('the service proxy on orch up with containerd: ClusterIP, NodePort, scaling, rejects, the kubernetes Service from a pod, RBAC for in-cluster clients', { timeout: 660_000 }, async t => {
  const skip = containerdSkipReason() || busyboxSkipReason() || (!findNft() && 'nft not installed (apt-get install nftables)') || (!existsSync(kubectlBin) && `${kubectlBin} not installed`);
  if (skip) return t.skip(skipForMissing(skip));
  const steps: Array<() => unknown> = [];
  t.after(async () => { for (const fn of steps.reverse()) await fn(); });
  // one cluster on the host network at a time (see host-network-lock.ts; the wait for another
  // file's cluster is in this test's timeout); released last
  steps.push(await holdHostNetwork());
  const dir = await mkdtemp(join(tmpdir(), 'orch-proxy-e2e-'));
  steps.push(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true }); });
  const dataDir = join(dir, 'data');
  const table = `orch-proxy-e2e-${process.pid}`;

  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', dataDir, '--port', '0', '--agent-port', '0', '--runtime', 'containerd', '--proxy-nft-table', table], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  let stopped = false;
  steps.push(async () => { if (!stopped) { child.kill('SIGINT'); await exited; } });
  // the image is made while orch up starts
  const archive = join(dir, 'tools.tar');
  await writeFile(archive, toolsImage());
  await Promise.race([
    until('orch up Ready', async () => /^node \S+ Ready/m.test(out), 60_000),
    exited.then(() => { throw new Error(`orch up exited: ${err}`); }),
  ]);
  const imported = await new Promise<number | null>(r => spawn(join(repoRoot, 'bin/orch'), ['images', 'import', '--data-dir', dataDir, archive], { stdio: 'ignore' }).once('exit', r));
  assert.equal(imported, 0, 'orch images import');

  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const k = async (...args: string[]) => {
    const r = await kubectl(kubectlBin, kubeconfig, args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const exec = (pod: string, script: string) => kubectl(kubectlBin, kubeconfig, ['exec', pod, '--', 'sh', '-c', script]);
  /** what an HTTP GET from inside `pod` answers (busybox nc; its wget is not reliable in these containers) */
  const fetchFromPod = async (pod: string, host: string, port: number) =>
    (await exec(pod, `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 3 ${host} ${port} 2>&1 | tail -n 1`)).stdout.trim();

  // httpd pods answering with their own name, behind a NodePort Service; a client pod beside them
  await k('create', 'deployment', 'web', `--image=${image}`, '--replicas=2', '--', 'sh', '-c', 'hostname > /www/index.html; exec httpd -f -p 8080 -h /www');
  await k('expose', 'deployment', 'web', '--port=80', '--target-port=8080', '--type=NodePort');
  await k('run', 'client', `--image=${image}`, '--restart=Never', '--command', '--', 'sleep', '3600');
  await k('create', 'service', 'clusterip', 'empty', '--tcp=80:8080');
  await k('rollout', 'status', 'deployment/web', '--timeout=60s');
  await k('wait', '--for=condition=Ready', 'pod/client', '--timeout=60s');
  const clusterIP = await k('get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}');
  const nodePort = Number(await k('get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}'));
  const nodeIP = await k('get', 'nodes', '-o', 'jsonpath={.items[0].status.addresses[?(@.type=="InternalIP")].address}');
  const webPods = async () => (await k('get', 'pods', '-l', 'app=web', '--field-selector=status.phase=Running', '-o', 'jsonpath={.items[*].metadata.name}')).split(' ').filter(Boolean);
  const first = await webPods();
  assert.equal(first.length, 2);

  // the ClusterIP and the node port (node address and 127.0.0.1) answer from the host and from a pod
  const answered = (body: string) => first.includes(body);
  await until('the ClusterIP answers from the host', async () => answered(await fetchFromHost(clusterIP, 80)), 15_000, 100);
  assert.ok(answered(await fetchFromHost(nodeIP, nodePort)), 'node port on the node address');
  assert.ok(answered(await fetchFromHost('127.0.0.1', nodePort)), 'node port on 127.0.0.1');
  assert.ok(answered(await fetchFromPod('client', clusterIP, 80)), 'ClusterIP from a pod');
  assert.ok(answered(await fetchFromPod('client', nodeIP, nodePort)), 'node port from a pod');
  // hairpin: a backend reaching itself through its own Service (masqueraded, so the reply returns)
  const self = await until('a backend reached itself through its Service', async () => {
    const body = await fetchFromPod(first[0]!, clusterIP, 80);
    return body === first[0] ? body : undefined;
  }, 20_000, 0);
  assert.equal(self, first[0]);

  // a Service without endpoints: refused at once, not left to time out
  const emptyIP = await k('get', 'service', 'empty', '-o', 'jsonpath={.spec.clusterIP}');
  assert.equal(await fetchFromHost(emptyIP, 80), 'error ECONNREFUSED');
  assert.match(await fetchFromPod('client', emptyIP, 80), /Connection refused/);

  // an external IP of the Service answers too (from this host: routed out, DNATed on the way)
  await k('patch', 'service', 'web', '-p', '{"spec":{"externalIPs":["198.51.100.123"]}}');
  await until('the external IP answers', async () => answered(await fetchFromHost('198.51.100.123', 80)), 15_000, 100);

  // scaling up: the new pod gets traffic; scaling down: only the pod left does
  await k('scale', 'deployment/web', '--replicas=3');
  await k('rollout', 'status', 'deployment/web', '--timeout=60s');
  const added = (await webPods()).filter(p => !first.includes(p));
  assert.equal(added.length, 1);
  await until('the new pod answers on the ClusterIP', async () => (await fetchFromHost(clusterIP, 80)) === added[0], 20_000, 0);
  await k('scale', 'deployment/web', '--replicas=1');
  await until('one ready endpoint left', async () => (await k('get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}')).split(' ').filter(Boolean).length === 1, 30_000);
  const left = (await k('get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[*].endpoints[?(@.conditions.ready==true)].targetRef.name}')).trim();
  await until('only the pod left answers', async () => {
    const bodies = await Promise.all([1, 2, 3, 4, 5, 6].map(() => fetchFromHost(clusterIP, 80)));
    return bodies.every(b => b === left);
  }, 15_000, 100);

  // the API server through the kubernetes Service, with the pod's token: /version to anyone,
  // pods only after a RoleBinding of `view` to its service account
  const version = await exec('client', 'kubectl get --raw /version');
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /"gitVersion": "v1\.\d+\.\d+/);
  const env = await exec('client', 'echo $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT');
  assert.equal(env.stdout.trim(), '10.96.0.1:443');
  const denied = await exec('client', 'kubectl get pods -o name');
  assert.notEqual(denied.code, 0);
  assert.equal(denied.stderr.trim().split('\n')[0], 'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"');
  await k('create', 'rolebinding', 'client-view', '--clusterrole=view', '--serviceaccount=default:default');
  const listed = await until('the pod lists pods once bound', async () => {
    const r = await exec('client', 'kubectl get pods -o name');
    return r.code === 0 ? r.stdout : undefined;
  }, 10_000);
  assert.match(listed, /^pod\/client$/m);

  // the same proxy apart: `orch proxy --dry-run` prints the table it would write, and writes nothing
  const help = await new Promise<string>(r => { let o = ''; const c = spawn(join(repoRoot, 'bin/orch'), ['proxy', '--help']); c.stdout.on('data', d => { o += d; }); c.once('exit', () => r(o)); });
  assert.match(help, /--hostname-override string/);
  const bad = await new Promise<{ code: number | null; stderr: string }>(r => { let e = ''; const c = spawn(join(repoRoot, 'bin/orch'), ['proxy', '--kubeconfig', kubeconfig, '--proxy-mode', 'ipvs']); c.stderr.on('data', d => { e += d; }); c.once('exit', code => r({ code, stderr: e })); });
  assert.deepEqual(bad, { code: 2, stderr: 'Error: invalid --proxy-mode "ipvs": nftables or iptables\n' });
  const nodeName = await k('get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}');
  const dry = spawn(join(repoRoot, 'bin/orch'), ['proxy', '--kubeconfig', kubeconfig, '--hostname-override', nodeName, '--dry-run', '--nft-table', `${table}-dry`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  dry.stdout!.on('data', d => { printed += d; });
  const dryExited = new Promise<number | null>(r => dry.once('exit', code => r(code)));
  steps.push(async () => { dry.kill('SIGTERM'); await dryExited; });
  await until('orch proxy --dry-run printed its table', async () => /\n}\n/.test(printed), 15_000, 50);
  assert.match(printed, new RegExp(`^table ip ${table}-dry \\{`));
  assert.match(printed, new RegExp(`${clusterIP.replaceAll('.', '\\.')} \\. tcp \\. 80 : goto service-[0-9A-F]{8}-default/web/tcp/`));
  dry.kill('SIGTERM');
  assert.equal(await dryExited, 0);
  assert.equal(await listNftTable('ip', `${table}-dry`), undefined);

  // a clean stop takes the rules away
  assert.notEqual(await listNftTable('ip', table), undefined);
  child.kill('SIGINT');
  assert.equal(await exited, 0, err);
  stopped = true;
  assert.equal(await listNftTable('ip', table), undefined);
});
