import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { checkProbe } from '../../../../src/agent/pods/probe-check.ts';
import type { CriClient } from '../../../../src/agent/cri/client.ts';

const listen = (s: http.Server | net.Server) => new Promise<number>(r => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

test('HTTP probes: 2xx and 3xx succeed, others fail with the status; named ports resolve; headers sent', async () => {
  let seen: http.IncomingHttpHeaders = {};
  const server = http.createServer((req, res) => { seen = req.headers; res.statusCode = req.url === '/ok' ? 200 : req.url === '/moved' ? 302 : 503; res.end(); });
  const port = await listen(server);
  try {
    const target = { cri: {} as CriClient, containerId: 'c', container: { name: 'web', ports: [{ name: 'http', containerPort: port }] }, podIP: '127.0.0.1' };
    assert.deepEqual(await checkProbe({ httpGet: { path: '/ok', port: 'http', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] } }, target), { ok: true, output: '' });
    assert.equal(seen['x-probe'], 'yes');
    assert.match(String(seen['user-agent']), /^kube-probe\//);
    assert.equal((await checkProbe({ httpGet: { path: '/moved', port } }, target)).ok, true);
    assert.deepEqual(await checkProbe({ httpGet: { path: '/bad', port } }, target), { ok: false, output: 'HTTP probe failed with statuscode: 503' });
  } finally {
    server.close();
  }
});

test('TCP probes: a connection made succeeds, a refused one fails', async () => {
  const server = net.createServer(s => s.end());
  const port = await listen(server);
  const target = { cri: {} as CriClient, containerId: 'c', container: { name: 'db' }, podIP: '127.0.0.1' };
  try {
    assert.equal((await checkProbe({ tcpSocket: { port } }, target)).ok, true);
  } finally {
    await new Promise(r => server.close(r));
  }
  const refused = await checkProbe({ tcpSocket: { port } }, target);
  assert.equal(refused.ok, false);
  assert.equal(refused.output, `dial tcp 127.0.0.1:${port}: connect: connection refused`);
});

test('exec probes go through the runtime: exit 0 succeeds', async () => {
  const calls: unknown[] = [];
  const cri = { execSync: async (req: any) => { calls.push(req); return { exitCode: req.cmd[0] === 'true' ? 0 : 1, stdout: Buffer.from(''), stderr: Buffer.from(req.cmd[0] === 'true' ? '' : 'nope') }; } } as unknown as CriClient;
  const target = { cri, containerId: 'c1', container: { name: 'x' }, podIP: '' };
  assert.equal((await checkProbe({ exec: { command: ['true'] }, timeoutSeconds: 3 }, target)).ok, true);
  assert.deepEqual(calls[0], { containerId: 'c1', cmd: ['true'], timeout: 3 });
  assert.deepEqual(await checkProbe({ exec: { command: ['false'] } }, target), { ok: false, output: 'nope' });
});
