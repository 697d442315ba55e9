// Issue 26's agent authentication and authorization end to end: `orch server` and a real
// `orch agent` (Webhook mode, as its configuration file defaults it) on the simulated runtime.
// kubectl logs/exec and nodes/proxy through the API server keep working (the API server's
// kube-apiserver-kubelet-client certificate, group system:masters); straight to the agent, a
// cluster-CA certificate for "bob" is refused with the kubelet's 403, no credentials get 401,
// and a service account token is let in once it is bound to system:kubelet-api-admin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueClientCert } from '../../src/apiserver/cluster-certs.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { image, runtimeKinds, startPodCluster } from './support/pod-runtimes.ts';
import { until } from './support/until.ts';

interface Answer { status: number; body: string }

function agentGet(port: number, path: string, creds: { cert?: string; key?: string; token?: string } = {}, upgrade = false): Promise<Answer> {
  const headers: Record<string, string> = creds.token ? { authorization: `Bearer ${creds.token}` } : {};
  // an exec as kubectl 1.33 opens it: a WebSocket upgrade
  if (upgrade) Object.assign(headers, { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'v5.channel.k8s.io' });
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, cert: creds.cert, key: creds.key, headers }, res => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('agent authentication and authorization (Webhook) with real clients', { timeout: 120_000 }, async t => {
  const k = kubectls()[0];
  if (!k) return t.skip(skipForMissing('kubectl not installed'));
  const sim = runtimeKinds.find(r => r.name === 'runtime-sim')!;
  const cluster = await startPodCluster(sim, t);
  const started = Date.now();
  const kubeconfig = cluster.orch.kubeconfig;
  const port = cluster.agent().port;
  const run = async (args: string[], input?: string) => { const r = await kubectl(k.path, kubeconfig, args, input); assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`); return r.stdout; };

  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'talker', namespace: 'default' }, spec: { nodeName: cluster.node, containers: [{ name: 'c', image, command: ['sh', '-c', 'echo hello from talker; while true; do sleep 1; done'] }] } };
  await run(['apply', '-f', '-'], JSON.stringify(pod));
  await until('talker running', async () => (await cluster.c.request('GET', '/api/v1/namespaces/default/pods/talker')).json()?.status?.containerStatuses?.[0]?.state?.running, 30_000);

  // through the API server, whose own certificate the agent authorizes
  assert.equal(await until('kubectl logs', async () => { const r = await kubectl(k.path, kubeconfig, ['logs', 'talker']); return r.code === 0 && r.stdout.includes('hello') && r.stdout; }, 15_000), 'hello from talker\n');
  assert.equal(await run(['exec', 'talker', '--', 'echo', 'exec works']), 'exec works\n');
  assert.equal(await run(['get', '--raw', `/api/v1/nodes/${cluster.node}/proxy/healthz`]), 'ok');

  // straight to the agent
  const logsPath = '/containerLogs/default/talker/c';
  const none = await agentGet(port, logsPath);
  assert.deepEqual(none, { status: 401, body: 'Unauthorized' });
  const pki = join(cluster.orch.dataDir, 'pki');
  const ca = { caCert: await readFile(join(pki, 'ca.crt'), 'utf8'), caKey: await readFile(join(pki, 'ca.key'), 'utf8') };
  const bob = await issueClientCert(ca, { commonName: 'bob', organizations: ['devs'] });
  assert.deepEqual(await agentGet(port, logsPath, bob), { status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[proxy])\n' });
  assert.deepEqual(await agentGet(port, '/stats/summary', bob), { status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[stats])\n' });
  const execPath = '/exec/default/talker/c?command=echo&command=hi&output=1';
  assert.deepEqual(await agentGet(port, execPath, bob, true), { status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[proxy])\n' });
  assert.deepEqual(await agentGet(port, execPath, {}, true), { status: 401, body: 'Unauthorized' });
  // a certificate of another CA is no identity at all
  const stranger = await issueClientCert(await (await import('../../src/pki/certs.ts')).createCa('stranger', 1).then(c => ({ caCert: c.cert, caKey: c.key })), { commonName: 'bob' });
  assert.equal((await agentGet(port, logsPath, stranger)).status, 401);

  // a service account token, through a TokenReview: refused until bound to system:kubelet-api-admin
  await run(['create', 'serviceaccount', 'node-reader']);
  await run(['create', 'serviceaccount', 'nobody']);
  const tokenOf = async (sa: string) => (await run(['create', 'token', sa])).trim();
  const nobody = await agentGet(port, logsPath, { token: await tokenOf('nobody') });
  assert.deepEqual(nobody, { status: 403, body: 'Forbidden (user=system:serviceaccount:default:nobody, verb=get, resource=nodes, subresource(s)=[proxy])\n' });
  assert.deepEqual(await agentGet(port, logsPath, { token: 'not-a-token' }), { status: 401, body: 'Unauthorized' });
  await run(['create', 'clusterrolebinding', 'node-reader-kubelet-api', '--clusterrole=system:kubelet-api-admin', '--serviceaccount=default:node-reader']);
  const token = await tokenOf('node-reader');
  const logs = await agentGet(port, logsPath, { token });
  assert.equal(logs.status, 200, logs.body);
  assert.match(logs.body, /hello from talker/);
  const pods = await agentGet(port, '/pods', { token });
  assert.equal(pods.status, 200, pods.body);
  assert.ok(JSON.parse(pods.body).items.some((p: any) => p.metadata.name === 'talker'));
  console.log(`agent authn/authz checks after the cluster was up: ${Date.now() - started} ms`);
});
