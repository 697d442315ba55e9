// Cluster DNS in `orch up` on the simulated runtime, asked with a real resolver client (`dig`):
// a ClusterIP Service, a headless one with StatefulSet pods (hostname.subdomain), SRV, PTR,
// ExternalName, pod records, NXDOMAIN against NODATA, the apex's NS (the kube-dns Service this
// server sits behind), a reply too large for UDP truncated and fetched again over TCP, names
// outside the zone forwarded to an upstream of this test and cached; a pod's /etc/hosts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as packet from 'dns-packet';
import { requires } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';

const run = promisify(execFile);
const digMissing = !existsSync('/usr/bin/dig') && 'dig not installed (apt-get install bind9-dnsutils)';
const image = 'registry.local/app:1.0';
const loop = ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];

/** an upstream resolver: outside.example A 192.0.2.1, everything else NXDOMAIN; counts what it is asked */
async function upstream(): Promise<{ port: number; asked: string[]; close(): void }> {
  const sock = createSocket('udp4');
  const asked: string[] = [];
  sock.on('message', (msg, r) => {
    const q = packet.decode(msg);
    const question = q.questions![0]!;
    asked.push(`${question.name} ${question.type}`);
    const hit = question.name.toLowerCase() === 'outside.example' && question.type === 'A';
    sock.send(packet.encode({
      type: 'response', id: q.id, flags: packet.RECURSION_AVAILABLE | (hit ? 0 : 3), questions: q.questions,
      answers: hit ? [{ name: question.name, type: 'A', class: 'IN', ttl: 60, data: '192.0.2.1' }] : [],
      authorities: hit ? [] : [{ name: 'example', type: 'SOA', class: 'IN', ttl: 60, data: { mname: 'ns.example', rname: 'h.example', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 30 } }],
    }), r.port, r.address);
  });
  await new Promise<void>(r => sock.bind(0, '127.0.0.1', () => r()));
  return { port: sock.address().port, asked, close: () => sock.close() };
}

test('cluster DNS answers dig as CoreDNS does', requires(digMissing || (!kubectls().length && 'kubectl not installed')), async t => {
  const dir = await mkdtemp(join(tmpdir(), 'dns-e2e-'));
  const up = await upstream();
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', join(dir, 'data'), '--port', '0', '--agent-port', '0', '--runtime', 'sim', '--dns-port', '0', '--upstream', `127.0.0.1:${up.port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  // orch first (its pods' volume mounts go with it), then its data dir
  t.after(async () => { child.kill('SIGINT'); await exited; up.close(); await rm(dir, { recursive: true, force: true }); });
  await Promise.race([until('orch up Ready', async () => /^node \S+ Ready/m.test(out), 60_000), exited.then(() => { throw new Error(`orch up exited: ${err}`); })]);
  const port = Number(/^cluster DNS: cluster\.local on 127\.0\.0\.1:(\d+)/m.exec(out)?.[1]);
  assert.ok(port > 0, out);
  const kubeconfig = join(dir, 'data', 'admin.kubeconfig');
  const k = kubectls()[0]!.path;
  const dig = async (...args: string[]) => (await run('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', ...args])).stdout;
  const short = async (...args: string[]) => (await dig('+short', ...args)).trim().split('\n').filter(Boolean).sort();

  const slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'many-1', labels: { 'kubernetes.io/service-name': 'many' } }, addressType: 'IPv4', ports: [{ name: 'p', port: 1, protocol: 'TCP' }], endpoints: Array.from({ length: 60 }, (_, i) => ({ addresses: [`10.99.0.${i + 1}`], conditions: { ready: true } })) };
  const objects = [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ name: 'pg', port: 5432 }] } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'web.default.svc.cluster.local' } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'many' }, spec: { clusterIP: 'None', ports: [{ name: 'p', port: 1 }] } },
    slice,
    { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', replicas: 2, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }], containers: [{ name: 'c', image, command: loop }] } } } },
  ];
  const applied = await kubectl(k, kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  assert.equal(applied.code, 0, applied.stderr);
  const webIP = (await kubectl(k, kubeconfig, ['get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;

  // the ClusterIP, whatever the case asked; authoritative, TTL 5
  assert.deepEqual(await short('web.default.svc.cluster.local', 'A'), [webIP]);
  const full = await dig('WEB.default.svc.Cluster.Local', 'A', '+noall', '+answer', '+comments');
  assert.match(full, /flags: qr aa rd;/);
  assert.match(full, new RegExp(`^WEB\\.default\\.svc\\.Cluster\\.Local\\.\\s+5\\s+IN\\s+A\\s+${webIP.replaceAll('.', '\\.')}$`, 'm'));
  // NXDOMAIN and NODATA, both with the SOA
  const nx = await dig('nothere.default.svc.cluster.local', 'A');
  assert.match(nx, /status: NXDOMAIN/);
  assert.match(nx, /cluster\.local\.\s+5\s+IN\s+SOA\s+ns\.dns\.cluster\.local\. hostmaster\.cluster\.local\. \d+ 7200 1800 86400 5/);
  const nodata = await dig('web.default.svc.cluster.local', 'AAAA');
  assert.match(nodata, /status: NOERROR/);
  assert.match(nodata, /ANSWER: 0, AUTHORITY: 1/);
  // SRV for the named port, its target's address in the additional section
  assert.deepEqual(await short('_http._tcp.web.default.svc.cluster.local', 'SRV'), ['0 100 80 web.default.svc.cluster.local.']);
  // PTR of the ClusterIP
  assert.deepEqual(await short('-x', webIP), ['web.default.svc.cluster.local.']);
  // ExternalName: the CNAME and its target's address
  assert.deepEqual(await short('ext.default.svc.cluster.local', 'A'), [webIP, 'web.default.svc.cluster.local.'].sort());
  // pod records
  assert.deepEqual(await short('10-42-7-9.default.pod.cluster.local', 'A'), ['10.42.7.9']);
  // the apex: NS is the kube-dns Service in front of this server
  assert.deepEqual(await short('cluster.local', 'NS'), ['kube-dns.kube-system.svc.cluster.local.']);
  const ns = await dig('cluster.local', 'NS', '+noall', '+additional');
  assert.match(ns, /kube-dns\.kube-system\.svc\.cluster\.local\.\s+5\s+IN\s+A\s+10\.96\.0\.10/);

  // the StatefulSet's pods: the headless Service answers both, each by hostname; SRV per pod
  const ips = await until('both db pods ready in DNS', async () => { const a = await short('db.default.svc.cluster.local', 'A'); return a.length === 2 && a; }, 20_000);
  const db0 = (await short('db-0.db.default.svc.cluster.local', 'A'))[0]!;
  assert.ok(ips.includes(db0));
  assert.deepEqual(await short('_pg._tcp.db.default.svc.cluster.local', 'SRV'), ['0 50 5432 db-0.db.default.svc.cluster.local.', '0 50 5432 db-1.db.default.svc.cluster.local.']);
  assert.deepEqual(await short('-x', db0), ['db-0.db.default.svc.cluster.local.']);
  // the pod's /etc/hosts, written by the agent and mounted into the container
  const hosts = await kubectl(k, kubeconfig, ['exec', 'db-0', '--', 'cat', '/etc/hosts']);
  assert.equal(hosts.code, 0, hosts.stderr);
  assert.match(hosts.stdout, /^# Kubernetes-managed hosts file\.\n127\.0\.0\.1\tlocalhost\n/);
  assert.ok(hosts.stdout.includes(`${db0}\tdb-0.db.default.svc.cluster.local\tdb-0\n`), hosts.stdout);
  assert.ok(hosts.stdout.endsWith('\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n'), hosts.stdout);

  // orch up's agent names the kube-dns Service in the pods' resolv.conf
  const resolv = await kubectl(k, kubeconfig, ['exec', 'db-0', '--', 'cat', '/etc/resolv.conf']);
  assert.equal(resolv.code, 0, resolv.stderr);
  assert.match(resolv.stdout, /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local\b.*\nnameserver 10\.96\.0\.10\noptions ndots:5\n$/);

  // too large for 512 bytes: TC over UDP, the whole answer over TCP (dig retries there by itself)
  const truncated = await dig('+noedns', '+ignore', 'many.default.svc.cluster.local', 'A');
  assert.match(truncated, /flags: qr aa tc rd;/);
  assert.equal((await short('+noedns', 'many.default.svc.cluster.local', 'A')).length, 60);
  assert.equal((await short('+tcp', 'many.default.svc.cluster.local', 'A')).length, 60);

  // outside the zone: the upstream's answer, then the cache's
  assert.deepEqual(await short('outside.example', 'A'), ['192.0.2.1']);
  assert.deepEqual(await short('OUTSIDE.example', 'A'), ['192.0.2.1']);
  assert.deepEqual(up.asked.filter(a => a.toLowerCase() === 'outside.example a'), ['outside.example A']);
  assert.match(await dig('nowhere.example', 'A'), /status: NXDOMAIN/);

  // kube-dns: the Service as a real cluster's, its endpoints this server
  const svc = JSON.parse((await kubectl(k, kubeconfig, ['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'json'])).stdout);
  assert.equal(svc.spec.clusterIP, '10.96.0.10');
  assert.deepEqual(svc.spec.ports.map((p: any) => `${p.name} ${p.port}/${p.protocol}`), ['dns 53/UDP', 'dns-tcp 53/TCP']);
  assert.equal(svc.metadata.labels['k8s-app'], 'kube-dns');
  const ep = JSON.parse((await kubectl(k, kubeconfig, ['get', 'endpoints', '-n', 'kube-system', 'kube-dns', '-o', 'json'])).stdout);
  assert.deepEqual(ep.subsets[0].addresses.map((a: any) => a.ip), ['127.0.0.1']);
  assert.ok(ep.subsets[0].ports.every((p: any) => p.port === port));
});
