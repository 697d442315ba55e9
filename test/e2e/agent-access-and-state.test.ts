// Issue 26 on one `orch server` and `orch agent` (Webhook authorization, as its configuration
// file defaults it) on `orch runtime-sim --checkpoint`, with real clients:
// - the checkpoint endpoint's acceptance: `kubectl get --raw` through nodes/<n>/proxy works; a
//   direct `curl --cert --key --cacert` to `/checkpoint/<ns>/<pod>/<container>` succeeds for a user
//   granted `nodes/checkpoint` (the archive 0600), is 401 without credentials and 403 in the
//   kubelet's words for a user who only has `nodes/proxy` — and the other way round on a
//   nodes/proxy path. (agent-authz.test.ts covers logs, exec, stats, tokens and foreign
//   certificates; checkpoint.test.ts the endpoint's answers on a standalone agent.)
// - the resize state files: a resize made while the agent is down is carried out after its
//   restart, because `actuated_pods_state` (the kubelet's checkpoint layout) says what the running
//   container was given.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueClientCert } from '../../src/apiserver/cluster-certs.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { image, runtimeKinds, startPodCluster } from './support/pod-runtimes.ts';
import { until } from './support/until.ts';

interface Curl { code: number; body: string }

/** curl as a user types it; the status code on a last line of its own */
function curl(args: string[]): Promise<Curl> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-w', '\n%{http_code}', ...args], (err, stdout, stderr) => {
      if (err && !stdout) return reject(new Error(`curl: ${stderr || err.message}`));
      const cut = stdout.lastIndexOf('\n');
      resolve({ code: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
    });
  });
}

test('the agent\'s endpoint and state files with real clients', { timeout: 120_000 }, async t => {
  const k = kubectls()[0];
  if (!k) return t.skip(skipForMissing('kubectl not installed'));
  if (!existsSync('/usr/bin/curl')) return t.skip(skipForMissing('curl not installed'));
  const sim = runtimeKinds.find(r => r.name === 'runtime-sim')!;
  const cluster = await startPodCluster(sim, t);
  const started = Date.now();
  const kubeconfig = cluster.orch.kubeconfig;
  const run = async (args: string[], input?: string) => { const r = await kubectl(k.path, kubeconfig, args, input); assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`); return r.stdout; };
  const dir = await mkdtemp(join(tmpdir(), 'orch-agent-access-'));
  t.after(() => rm(dir, { recursive: true, force: true }));

  await t.test('checkpoint and nodes/proxy: each needs its own grant, in the kubelet\'s words', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'counter', namespace: 'default' }, spec: { nodeName: cluster.node, containers: [{ name: 'app', image, command: ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo $i > /count; sleep 1; done'] }] } };
    // the grants first, so that no refusal is cached by the agent before they exist
    await Promise.all([
      run(['apply', '-f', '-'], JSON.stringify(pod)),
      run(['create', 'clusterrole', 'node-checkpointer', '--verb=create', '--resource=nodes/checkpoint']),
      run(['create', 'clusterrole', 'node-proxier', '--verb=get,create', '--resource=nodes/proxy']),
    ]);
    await run(['create', 'clusterrolebinding', 'carol-checkpoints', '--clusterrole=node-checkpointer', '--user=carol']);
    await run(['create', 'clusterrolebinding', 'dave-proxies', '--clusterrole=node-proxier', '--user=dave']);
    await until('the grants in force', async () => {
      const [c, d] = await Promise.all([kubectl(k.path, kubeconfig, ['auth', 'can-i', 'create', 'nodes', '--subresource=checkpoint', '--as', 'carol']), kubectl(k.path, kubeconfig, ['auth', 'can-i', 'get', 'nodes', '--subresource=proxy', '--as', 'dave'])]);
      return c.stdout.trim() === 'yes' && d.stdout.trim() === 'yes';
    }, 10_000);
    await until('counter running', async () => (await cluster.c.request('GET', '/api/v1/namespaces/default/pods/counter')).json()?.status?.containerStatuses?.[0]?.state?.running, 20_000);

    // through the API server: nodes/proxy, answered by the agent for the API server's own identity
    const listed = JSON.parse(await run(['get', '--raw', `/api/v1/nodes/${cluster.node}/proxy/pods`]));
    assert.ok(listed.items.some((p: any) => p.metadata.name === 'counter'), 'the agent\'s /pods through the API server');

    // client certificates of the cluster CA; the agent's serving certificate is checked against its own CA
    const pki = join(cluster.orch.dataDir, 'pki');
    const ca = { caCert: await readFile(join(pki, 'ca.crt'), 'utf8'), caKey: await readFile(join(pki, 'ca.key'), 'utf8') };
    const files = async (user: string) => {
      const pair = await issueClientCert(ca, { commonName: user });
      await writeFile(join(dir, `${user}.crt`), pair.cert);
      await writeFile(join(dir, `${user}.key`), pair.key, { mode: 0o600 });
      return ['--cert', join(dir, `${user}.crt`), '--key', join(dir, `${user}.key`)];
    };
    const [carol, dave] = await Promise.all([files('carol'), files('dave')]);
    const servingChain = await readFile(join(cluster.agent().rootDir, 'pki', 'kubelet.crt'), 'utf8');
    const agentCA = servingChain.slice(servingChain.indexOf('-----END CERTIFICATE-----') + '-----END CERTIFICATE-----'.length).trim();
    await writeFile(join(dir, 'agent-ca.crt'), `${agentCA}\n`);
    const base = `https://127.0.0.1:${cluster.agent().port}`;
    const checkpoint = `${base}/checkpoint/default/counter/app?timeout=20`;
    const podsPath = `${base}/pods`;
    const tls = ['--cacert', join(dir, 'agent-ca.crt')];

    // nodes/checkpoint: carol's archive
    const made = await curl([...tls, ...carol, '-X', 'POST', checkpoint]);
    assert.equal(made.code, 200, made.body);
    const archive = JSON.parse(made.body).items[0] as string;
    assert.match(archive, new RegExp(`^${join(cluster.agent().rootDir, 'checkpoints')}/checkpoint-counter_default-app-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(Z|[+-]\\d\\d:\\d\\d)\\.tar$`));
    assert.equal((await stat(archive)).mode & 0o777, 0o600);
    // without credentials: 401; dave, who may only proxy: 403 naming the subresource
    assert.deepEqual(await curl([...tls, '-X', 'POST', checkpoint]), { code: 401, body: 'Unauthorized' });
    assert.deepEqual(await curl([...tls, ...dave, '-X', 'POST', checkpoint]), { code: 403, body: 'Forbidden (user=dave, verb=create, resource=nodes, subresource(s)=[checkpoint])\n' });

    // and the other way round on a nodes/proxy path (/pods is asked as nodes/pods, then nodes/proxy, as the
    // kubelet's fine-grained authorization asks, and its refusal names both)
    const pods = await curl([...tls, ...dave, podsPath]);
    assert.equal(pods.code, 200, pods.body);
    assert.ok(JSON.parse(pods.body).items.some((p: any) => p.metadata.name === 'counter'));
    assert.deepEqual(await curl([...tls, ...carol, podsPath]), { code: 403, body: 'Forbidden (user=carol, verb=get, resource=nodes, subresource(s)=[pods proxy])\n' });
    assert.deepEqual(await curl([...tls, podsPath]), { code: 401, body: 'Unauthorized' });
  });

  await t.test('a resize made while the agent was down is carried out after its restart, from actuated_pods_state', async () => {
    const small = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } };
    const big = { requests: { cpu: '150m', memory: '48Mi' }, limits: { cpu: '300m', memory: '96Mi' } };
    const grower = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'grower', namespace: 'default' }, spec: { nodeName: cluster.node, containers: [{ name: 'main', image, command: ['sh', '-c', 'while true; do sleep 1; done'], resources: small }] } };
    await run(['apply', '-f', '-'], JSON.stringify(grower));
    const running = await until('grower running', async () => { const p = (await cluster.c.request('GET', '/api/v1/namespaces/default/pods/grower')).json(); return p?.status?.containerStatuses?.[0]?.state?.running && p; }, 20_000);
    const stateFile = join(cluster.agent().rootDir, 'actuated_pods_state');
    const entry = await until('the pod in actuated_pods_state', async () => {
      const doc = JSON.parse(await readFile(stateFile, 'utf8').catch(() => '{"data":"{}"}'));
      return JSON.parse(doc.data).entries?.[running.metadata.uid]?.ContainerResources?.main;
    }, 10_000);
    assert.deepEqual(entry, { limits: { cpu: '200m', memory: '64Mi' }, requests: { cpu: '100m', memory: '32Mi' } });
    const [before] = await cluster.containersOf('grower');
    const cri = await connectCri(cluster.endpoint, { timeoutMs: 10_000 });
    t.after(() => cri.close());
    const limitOf = async (id: string) => (await cri.containerStatus({ containerId: id })).status?.resources?.linux?.memoryLimitInBytes;
    assert.equal(Number(await limitOf(before!.id)), 64 * 1024 * 1024);

    await cluster.restartAgent(async () => {
      const r = await cluster.c.request('PATCH', '/api/v1/namespaces/default/pods/grower/resize', { body: JSON.stringify({ spec: { containers: [{ name: 'main', resources: big }] } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
      assert.equal(r.status, 200, r.body);
    });
    // the same container, updated in place: the restarted agent knew what it had been given
    await until('the runtime holds the new limit', async () => Number(await limitOf(before!.id)) === 96 * 1024 * 1024, 20_000);
    assert.deepEqual((await cluster.containersOf('grower')).map(x => x.id), [before!.id]);
    const after = await until('the status shows it', async () => { const p = (await cluster.c.request('GET', '/api/v1/namespaces/default/pods/grower')).json(); const s = p?.status?.containerStatuses?.[0]; return s?.resources?.limits?.memory === '96Mi' && s; }, 10_000);
    assert.equal(after.restartCount, 0);
  });
  console.log(`agent access and state checks after the cluster was up: ${Date.now() - started} ms`);
});
