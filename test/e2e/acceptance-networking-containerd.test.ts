// Issue 23's acceptance on `orch up` with its own containerd, as a user's pods see the network:
// a busybox pod resolves a Service by its full name and by the search path and fetches from the
// httpd pods behind it through the ClusterIP, the node port answers on the host, a headless
// Service resolves to every pod, a StatefulSet pod finds its peer by hostname, and
// `kubernetes.default` answers /version. Then NetworkPolicy: a default deny blocks the fetch, an
// allow by pod label restores it, and an egress deny blocks DNS until an allow for port 53.
// Between the two, issue 24's in-cluster clients: @kubernetes/client-node's loadFromCluster and
// the Python client's load_incluster_config, run in the client pod's network namespace with the
// pod's environment and its service account volume where a pod has it, list pods once a
// RoleBinding lets the pod's service account.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';
import { findNft } from '../../src/netfilter/nft.ts';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { holdHostNetwork } from '../support/host-network-lock.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { fetchFromHost, toolsImage, toolsImageName as image, toolsKubectl as kubectlBin } from './support/tools-image.ts';

const manifests = `
apiVersion: v1
kind: Service
metadata: { name: web-headless }
spec: { clusterIP: None, selector: { app: web }, ports: [{ port: 80, targetPort: 8080 }] }
---
apiVersion: v1
kind: Service
metadata: { name: db }
spec: { clusterIP: None, selector: { app: db }, ports: [{ port: 80 }] }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  replicas: 2
  podManagementPolicy: Parallel
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      terminationGracePeriodSeconds: 0
      containers: [{ name: db, image: ${image}, command: [sleep, '3600'] }]
`;

/** the host pid of a process whose command line is exactly `argv` (a container's process) */
function pidOf(argv: string[]): number | undefined {
  const want = argv.join('\0') + '\0';
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try { if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === want) return Number(entry); } catch { /* gone */ }
  }
  return undefined;
}

/**
 * runs a command on this host as if in the pod: in the network namespace of its process `pid`, with
 * its environment, and in a mount namespace of its own where the pod's service account volume is
 * at /var/run/secrets/kubernetes.io/serviceaccount (over a tmpfs on /run, which hides the host's)
 */
function inPod(pid: number, tokenDir: string, env: string[], command: string[]): Promise<{ code: number; out: string }> {
  const script = 'dir="$0"; pid="$1"; shift; mount -t tmpfs tmpfs /run && mkdir -p /run/secrets/kubernetes.io/serviceaccount && mount --bind "$dir" /run/secrets/kubernetes.io/serviceaccount && exec nsenter -t "$pid" -n -- env -i "$@"';
  return new Promise(resolve => execFile('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, tokenDir, String(pid), ...env, ...command], { timeout: 30_000 },
    (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` })));
}

const policy = (name: string, spec: object) => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec });

test('networking as pods see it on orch up with containerd: Service names, ClusterIP, NodePort, headless, StatefulSet peers, kubernetes.default, NetworkPolicy', { timeout: 660_000 }, async t => {
  const skip = containerdSkipReason() || busyboxSkipReason() || (!findNft() && 'nft not installed (apt-get install nftables)') || (!existsSync(kubectlBin) && `${kubectlBin} not installed`)
    || (!existsSync('/usr/lib/python3/dist-packages/kubernetes') && 'the Python client is not installed (apt-get install python3-kubernetes)');
  if (skip) return t.skip(skipForMissing(skip));
  const steps: Array<() => unknown> = [];
  t.after(async () => { for (const fn of steps.reverse()) await fn(); });
  steps.push(await holdHostNetwork());
  const dir = await mkdtemp(join(tmpdir(), 'orch-net-e2e-'));
  steps.push(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true }); });
  const dataDir = join(dir, 'data');

  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', dataDir, '--port', '0', '--agent-port', '0', '--runtime', 'containerd', '--proxy-nft-table', `orch-net-e2e-${process.pid}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  steps.push(async () => { if (child.exitCode === null) { child.kill('SIGINT'); await exited; } });
  const archive = join(dir, 'tools.tar');
  await writeFile(archive, toolsImage());
  await Promise.race([
    until('orch up Ready', async () => /^node \S+ Ready/m.test(out), 60_000),
    exited.then(() => { throw new Error(`orch up exited: ${err}`); }),
  ]);
  assert.doesNotMatch(out + err, /no cluster DNS|DNS .*failed/i, 'cluster DNS started');
  const imported = await new Promise<number | null>(r => spawn(join(repoRoot, 'bin/orch'), ['images', 'import', '--data-dir', dataDir, archive], { stdio: 'ignore' }).once('exit', r));
  assert.equal(imported, 0, 'orch images import');

  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const k = async (args: string[], input?: string) => {
    const r = await kubectl(kubectlBin, kubeconfig, args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const exec = (pod: string, script: string) => kubectl(kubectlBin, kubeconfig, ['exec', pod, '--', 'sh', '-c', script]);
  /**
   * the addresses busybox nslookup finds for a name through the pod's resolv.conf (none when it
   * finds none). It goes on through the search path after an answer, for the AAAA query, so its
   * exit status and the NXDOMAIN lines it prints for the later domains say nothing.
   */
  const lookup = async (pod: string, name: string) => {
    const r = await exec(pod, `timeout 5 nslookup ${name} 2>&1`);
    // after a "Name:" line come the answer's addresses (before the first, the server's)
    const answer = r.stdout.split(/^Name:/m).slice(1).join('\n');
    return [...new Set([...answer.matchAll(/Address(?: \d+)?:\s*([0-9.]+)/g)].map(m => m[1]!))].sort();
  };
  const fetchFromPod = async (pod: string, host: string, port: number) =>
    (await exec(pod, `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${host} ${port} 2>&1 | tail -n 1`)).stdout.trim();

  await k(['create', 'deployment', 'web', `--image=${image}`, '--replicas=2', '--', 'sh', '-c', 'hostname > /www/index.html; exec httpd -f -p 8080 -h /www']);
  await k(['expose', 'deployment', 'web', '--port=80', '--target-port=8080', '--type=NodePort']);
  await k(['apply', '-f', '-'], manifests);
  await k(['run', 'client', `--image=${image}`, '--restart=Never', '--labels=role=client', '--command', '--', 'sleep', '3601']);
  await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
  await k(['wait', '--for=condition=Ready', 'pod/client', 'pod/db-0', 'pod/db-1', '--timeout=60s']);
  const clusterIP = await k(['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
  const nodePort = Number(await k(['get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']));
  const nodeIP = await k(['get', 'nodes', '-o', 'jsonpath={.items[0].status.addresses[?(@.type=="InternalIP")].address}']);
  const podIPs = async (selector: string) => (await k(['get', 'pods', '-l', selector, '-o', 'jsonpath={.items[*].status.podIP}'])).split(' ').filter(Boolean).sort();
  const webNames = (await k(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' ');

  // by the full name and through the search path, to the ClusterIP, which reaches a web pod
  assert.deepEqual(await until('the Service resolves', async () => { const a = await lookup('client', 'web.default.svc.cluster.local'); return a.length ? a : undefined; }, 20_000), [clusterIP]);
  assert.deepEqual(await lookup('client', 'web'), [clusterIP]);
  assert.ok(webNames.includes(await fetchFromPod('client', clusterIP, 80)), 'a web pod answers on the ClusterIP');
  assert.ok(webNames.includes(await fetchFromHost(nodeIP, nodePort)), 'a web pod answers on the node port');
  // a headless Service names every ready pod; a StatefulSet pod finds its peer by hostname
  assert.deepEqual(await lookup('client', 'web-headless'), await podIPs('app=web'));
  const db1 = (await k(['get', 'pod', 'db-1', '-o', 'jsonpath={.status.podIP}']));
  // (busybox's nslookup walks the search path only for names without a dot: the full name here)
  assert.deepEqual(await lookup('db-0', 'db-1.db.default.svc.cluster.local'), [db1]);
  // the API server by the name in-cluster clients use
  const version = await exec('client', 'kubectl --server=https://kubernetes.default --certificate-authority=/var/run/secrets/kubernetes.io/serviceaccount/ca.crt --token="$(cat /var/run/secrets/kubernetes.io/serviceaccount/token)" get --raw /version');
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /"gitVersion": "v1\.\d+\.\d+/);

  // in-cluster client libraries with what the pod has: forbidden, then allowed by a RoleBinding
  const clientPid = pidOf(['sleep', '3601']);
  assert.ok(clientPid, 'the client pod\'s process');
  const uid = await k(['get', 'pod', 'client', '-o', 'jsonpath={.metadata.uid}']);
  const tokenVolume = await k(['get', 'pod', 'client', '-o', 'jsonpath={.spec.volumes[?(@.projected)].name}']);
  const tokenDir = join(dataDir, 'agent', 'pods', uid, 'volumes', 'kubernetes.io~projected', tokenVolume);
  const podEnv = (await exec('client', 'env')).stdout.split('\n').filter(l => l.startsWith('KUBERNETES_'));
  assert.ok(podEnv.includes('KUBERNETES_SERVICE_HOST=10.96.0.1'), podEnv.join(' '));
  const script = join(dir, 'in-cluster.mjs');
  await writeFile(script, [
    `import * as k8s from ${JSON.stringify(join(repoRoot, 'node_modules/@kubernetes/client-node/dist/index.js'))};`,
    'const kc = new k8s.KubeConfig(); kc.loadFromCluster();',
    "try { const pods = await kc.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: 'default' }); console.log('pods:', pods.items.map(p => p.metadata.name).sort().join(' ')); }",
    'catch (err) { console.log(`error ${err.code}`); }',
  ].join('\n'));
  const nodeClient = () => inPod(clientPid!, tokenDir, podEnv, [join(repoRoot, 'node_modules/.bin/node'), script]);
  const pythonClient = () => inPod(clientPid!, tokenDir, podEnv, ['/usr/bin/python3', '-c', [
    'from kubernetes import client, config',
    'config.load_incluster_config()',
    'try: print("pods:", " ".join(sorted(p.metadata.name for p in client.CoreV1Api().list_namespaced_pod("default").items)))',
    'except client.exceptions.ApiException as e: print("error", e.status)',
  ].join('\n')]);
  assert.match((await nodeClient()).out, /^error 403$/m);
  assert.match((await pythonClient()).out, /^error 403$/m);
  await k(['create', 'rolebinding', 'client-view', '--clusterrole=view', '--serviceaccount=default:default']);
  assert.match(await until('@kubernetes/client-node in the pod lists pods', async () => { const r = await nodeClient(); return /^pods: /m.test(r.out) && r.out; }, 10_000), /^pods: .*\bclient\b/m);
  assert.match((await pythonClient()).out, /^pods: .*\bclient\b/m);

  // NetworkPolicy: deny all ingress, then let pods labelled role=client reach the web pods
  const webIP = (await podIPs('app=web'))[0]!;
  assert.ok(webNames.includes(await fetchFromPod('client', webIP, 8080)), 'allowed before any policy');
  await k(['apply', '-f', '-'], policy('deny-ingress', { podSelector: {}, policyTypes: ['Ingress'] }));
  await until('the default deny blocks the fetch', async () => !webNames.includes(await fetchFromPod('client', webIP, 8080)), 15_000, 100);
  await k(['apply', '-f', '-'], policy('web-from-clients', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }], ports: [{ port: 8080 }] }] }));
  await until('the allow by label restores it', async () => webNames.includes(await fetchFromPod('client', clusterIP, 80)), 15_000, 100);
  // egress: a deny for the client stops its DNS until port 53 is allowed
  await k(['apply', '-f', '-'], policy('client-egress', { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'] }));
  await until('the egress deny blocks DNS', async () => (await lookup('client', 'web')).length === 0, 15_000, 100);
  await k(['apply', '-f', '-'], policy('client-dns', { podSelector: { matchLabels: { role: 'client' } }, policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] }] }));
  assert.deepEqual(await until('DNS allowed again', async () => { const a = await lookup('client', 'web'); return a.length ? a : undefined; }, 15_000, 100), [clusterIP]);

  child.kill('SIGINT');
  assert.equal(await exited, 0, err);
});
