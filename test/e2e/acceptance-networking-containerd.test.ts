// Issue 23's acceptance on `orch up` with its own containerd, as a user's pods see the network:
// a busybox pod resolves a Service by its full name and by the search path and fetches from the
// httpd pods behind it through the ClusterIP, the node port answers on the host, a headless
// Service resolves to every pod, a StatefulSet pod finds its peer by hostname, and
// `kubernetes.default` answers /version. Then NetworkPolicy: a default deny blocks the fetch, an
// allow by pod label restores it, and an egress deny blocks DNS until an allow for port 53.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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

const policy = (name: string, spec: object) => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec });

test('networking as pods see it on orch up with containerd: Service names, ClusterIP, NodePort, headless, StatefulSet peers, kubernetes.default, NetworkPolicy', { timeout: 660_000 }, async t => {
  const skip = containerdSkipReason() || busyboxSkipReason() || (!findNft() && 'nft not installed (apt-get install nftables)') || (!existsSync(kubectlBin) && `${kubectlBin} not installed`);
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
  await k(['run', 'client', `--image=${image}`, '--restart=Never', '--labels=role=client', '--command', '--', 'sleep', '3600']);
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
