// NetworkPolicy enforced on real containerd by `orch network-policy` (the node component orch up
// also runs beside its agent), driven with kubectl: a client pod fetches from a busybox httpd pod
// by pod IP; a default-deny ingress policy blocks it (the node itself still reaches the pod); an
// allow by pod label on a named port restores it for that client only; a namespaceSelector lets a
// pod of another namespace in; an egress default-deny blocks a UDP query to the pod gateway (a
// listener of this test, where cluster DNS listens) until an egress allow for that UDP port. The
// start replaces what an earlier run left in the node's table; a clean stop removes it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { spawn } from 'node:child_process';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxImage, startContainerdCluster } from './support/containerd-cluster.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { applyNft, deleteNftTable, findNft, listNftTable } from '../../src/netfilter/nft.ts';
import { join } from 'node:path';

const pod = (name: string, ns: string, node: string, labels: Record<string, string>, command: string[], ports: object[] = []) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels },
  spec: { nodeName: node, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: busyboxImage, imagePullPolicy: 'IfNotPresent', command, ports }] },
});
const policy = (name: string, ns: string, spec: object) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: ns }, spec });
const idle = ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];

test('NetworkPolicy on containerd: ingress deny and allow by label, named port and namespace, egress deny and allow', { timeout: 180_000 }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason() ?? (findNft() ? undefined : 'nft not installed (apt-get install nftables)');
  if (skip) return t.skip(skipForMissing(skip));
  const k = kubectls()[0];
  if (!k) return t.skip(skipForMissing('kubectl not installed'));
  const started = Date.now();
  const { orch, node } = await startContainerdCluster(t, 'netpol');
  const kubeconfig = orch.kubeconfig;
  const table = `orch-netpol-${node}`;
  // what a killed earlier run would have left: the start writes the whole table, without it
  await applyNft(`add table inet ${table}\nadd chain inet ${table} leftover\n`);
  t.after(() => deleteNftTable('inet', table));
  const enforcer = spawn(join(repoRoot, 'bin/orch'), ['network-policy', '--kubeconfig', kubeconfig, '--hostname-override', node, '--v', '4', '--logging-format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  enforcer.stdout!.on('data', d => { out += d; });
  enforcer.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => enforcer.once('exit', code => r(code)));
  t.after(async () => { if (enforcer.exitCode === null) { enforcer.kill('SIGTERM'); await exited; } });
  await Promise.race([
    until('orch network-policy running', async () => out.includes(`orch network-policy running for node ${node}: table inet ${table}`), 30_000, 100),
    exited.then(code => { throw new Error(`orch network-policy exited (${code}): ${err}`); }),
  ]);
  const chains = async () => ((await listNftTable('inet', table)) as { nftables: Array<{ chain?: { name: string } }> }).nftables.flatMap(x => (x.chain ? [x.chain.name] : []));
  assert.deepEqual((await chains()).sort(), ['egress', 'egress-allowed', 'forward', 'ingress', 'input'], 'the leftover chain is gone');

  const run = async (args: string[], input?: string) => {
    const r = await kubectl(k.path, kubeconfig, args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const apply = (...objs: object[]) => run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objs }));
  await apply(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } },
    pod('web', 'default', node, { app: 'web' }, ['sh', '-c', 'mkdir -p /www && echo hello > /www/index.html && exec httpd -f -p 8080 -h /www'], [{ name: 'http', containerPort: 8080 }]),
    pod('client', 'default', node, { app: 'client' }, idle),
    pod('outsider', 'team-a', node, { app: 'client' }, idle),
  );
  const ips = await until('the three pods Running with addresses', async () => {
    const lines = (await run(['get', 'pods', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.status.phase} {.status.podIP}{"\\n"}{end}'])).trim().split('\n').map(l => l.split(' '));
    return lines.length === 3 && lines.every(l => l[1] === 'Running' && l[2]) && Object.fromEntries(lines.map(l => [l[0], l[2]!]));
  }, 60_000, 200).catch(async e => { throw new Error(`${e.message}\n${await run(['get', 'pods', '-A', '-o', 'yaml'])}`); });
  const ready = Date.now();
  t.diagnostic(`cluster, enforcer and pods ready after ${ready - started} ms`);

  /** does `from` get the page from web? */
  const fetches = async (from: string, ns: string) => {
    const r = await kubectl(k.path, kubeconfig, ['exec', '-n', ns, from, '--', 'sh', '-c', `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 1 ${ips.web} 8080`]);
    if (process.env.NETPOL_DEBUG) t.diagnostic(`${from}: ${r.code} ${r.stdout} ${r.stderr}`);
    return r.code === 0 && r.stdout.startsWith('HTTP/1.') && r.stdout.endsWith('\r\n\r\nhello\n');
  };
  const becomes = async (what: string, check: () => Promise<boolean>, want: boolean) => {
    const since = Date.now();
    await until(what, async () => (await check()) === want, 15_000, 100);
    t.diagnostic(`${what}: ${Date.now() - since} ms`);
  };

  await becomes('no policy: the fetch works (once httpd listens)', () => fetches('client', 'default'), true);

  await apply(policy('default-deny', 'default', { podSelector: {}, policyTypes: ['Ingress'] }));
  // from the write (kubectl has returned) to the kernel holding the change
  const written = Date.now();
  await until('web isolated in the kernel\'s table', async () => {
    const t = await listNftTable('inet', table) as { nftables?: Array<{ set?: { name: string; elem?: unknown[] } }> } | undefined;
    return t?.nftables?.some(x => x.set?.name === 'ingress-isolated-v4' && JSON.stringify(x.set.elem ?? []).includes(`"${ips.web}"`));
  }, 5000, 5);
  t.diagnostic(`default-deny written to rules programmed: ${Date.now() - written} ms`);
  await becomes('default-deny blocks the fetch', () => fetches('client', 'default'), false);
  // the node itself still reaches its pods (kubelet probes), as the API documents
  assert.equal(await (await fetch(`http://${ips.web}:8080/`, { signal: AbortSignal.timeout(2000) })).text(), 'hello\n');

  await apply(policy('web-from-clients', 'default', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 'http' }] }] }));
  await becomes('an allow by pod label on the named port restores it', () => fetches('client', 'default'), true);
  assert.equal(await fetches('outsider', 'team-a'), false, 'app=client in another namespace is not a peer of a podSelector alone');

  await apply(policy('web-from-team-a', 'default', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] }));
  await becomes('a namespaceSelector lets team-a in', () => fetches('outsider', 'team-a'), true);

  // UDP to the pod gateway, where cluster DNS listens: a listener of this test answering each query
  const udp = createSocket('udp4');
  t.after(() => udp.close());
  const heard: string[] = [];
  udp.on('message', (_msg, from) => {
    heard.push(from.address);
    // a TFTP error packet (opcode 5), so the pod's tftp ends at once with our word
    udp.send(Buffer.concat([Buffer.from([0, 5, 0, 0]), Buffer.from('netpol-pong\0')]), from.port, from.address);
  });
  // the pods' bridge address, which the test containerd's subnet starts with
  const gateway = ips.client.replace(/\.\d+\.\d+$/, '.0.1');
  await new Promise<void>(r => udp.bind(0, gateway, () => r()));
  const port = udp.address().port;
  const queries = async () => {
    const r = await kubectl(k.path, kubeconfig, ['exec', '-n', 'team-a', 'outsider', '--', 'busybox', 'timeout', '1', 'busybox', 'tftp', '-g', '-r', 'q', '-l', '/tmp/q', gateway, String(port)]);
    return r.stderr.includes('netpol-pong');
  };
  assert.equal(await queries(), true, 'no egress policy: the query is answered');
  await apply(policy('deny-egress', 'team-a', { podSelector: {}, policyTypes: ['Egress'] }));
  await becomes('an egress default-deny blocks the query', queries, false);
  const before = heard.length;
  assert.equal(await queries(), false);
  assert.equal(heard.length, before, 'the query never reached the host');
  await apply(policy('allow-dns', 'team-a', { podSelector: {}, policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port }] }] }));
  await becomes('an egress allow for that UDP port lets it through', queries, true);
  assert.equal(heard.at(-1), ips.outsider);
  assert.equal(await fetches('outsider', 'team-a'), false, 'TCP to web is still not allowed by team-a\'s egress');

  assert.ok(await listNftTable('inet', table), 'the node\'s table while it runs');
  t.diagnostic(`policy steps took ${Date.now() - ready} ms`);
  const programmed = err.split('\n').filter(l => l.includes('"rules programmed"')).map(l => JSON.parse(l) as { ms: number; whole: boolean });
  // the whole table at start, then one change per policy written (pods coming, with no policy yet, changed nothing)
  assert.ok(programmed.length >= 6, `${programmed.length} transactions`);
  assert.equal(programmed.filter(p => p.whole).length, 1, 'the whole table once, at start; changes after');
  t.diagnostic(`transactions: ${programmed.length}, slowest ${Math.max(...programmed.map(p => p.ms))} ms (generate + nft)`);
  enforcer.kill('SIGTERM');
  assert.equal(await exited, 0, err);
  assert.equal(await listNftTable('inet', table), undefined, 'a clean stop removes the table');
});
