import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkpointRoute, parseCheckpointRequest, type CheckpointBackend } from '../../../../src/agent/server/checkpoint-route.ts';

const u = (path: string) => new URL(path, 'https://agent');

test('path, method and timeout are read as the kubelet\'s route reads them', () => {
  assert.deepEqual(parseCheckpointRequest('POST', u('/checkpoint/ns/p/c')), { namespace: 'ns', pod: 'p', container: 'c', timeoutSeconds: 0 });
  assert.deepEqual(parseCheckpointRequest('POST', u('/checkpoint/ns/p/c?timeout=5&timeout=30')), { namespace: 'ns', pod: 'p', container: 'c', timeoutSeconds: 30 }, 'the last timeout counts');
  assert.deepEqual(parseCheckpointRequest('POST', u('/checkpoint/ns/p/c?timeout=-3')), { namespace: 'ns', pod: 'p', container: 'c', timeoutSeconds: -3 });
  for (const bad of ['x', '1.5', '', '10s', '99999999999999999999']) assert.deepEqual(parseCheckpointRequest('POST', u(`/checkpoint/ns/p/c?timeout=${bad}`)), { code: 404, body: 'cannot parse value of timeout parameter' }, bad);
  for (const path of ['/checkpoint', '/checkpoint/ns/p', '/checkpoint/ns/p/c/d', '/checkpoint/ns//c']) assert.deepEqual(parseCheckpointRequest('POST', u(path)), { code: 404, body: '404: Page Not Found' }, path);
  assert.deepEqual(parseCheckpointRequest('GET', u('/checkpoint/ns/p/c')), { code: 405, body: '405: Method Not Allowed' });
});

async function serve(t: { after(fn: () => unknown): void }, backend: CheckpointBackend) {
  const route = checkpointRoute(backend);
  const server = createServer((req, res) => void route(req, res, new URL(req.url!, 'http://agent')));
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const port = (server.address() as AddressInfo).port;
  return (path: string, method = 'POST') => new Promise<{ code: number; type: string; body: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, method }, res => {
      let body = '';
      res.on('data', d => { body += d; }).on('end', () => resolve({ code: res.statusCode!, type: String(res.headers['content-type']), body }));
    }).on('error', reject).end();
  });
}

test('answers: 404 for an unknown pod or container, 500 with the cause, 200 with the archive path as JSON', async t => {
  const asked: unknown[] = [];
  let outcome: { location: string } | { error: string } = { location: '/root/checkpoints/checkpoint-web_default-app-2026-01-02T03:04:05Z.tar' };
  const post = await serve(t, {
    pod: (ns, name) => (ns === 'default' && name === 'web' ? { containerNames: ['app', 'init', 'debugger'], runningContainerId: async c => (c === 'app' ? 'id-app' : undefined) } : undefined),
    async checkpoint(req) { asked.push(req); return outcome; },
  });
  assert.deepEqual(await post('/checkpoint/other/web/app'), { code: 404, type: 'text/plain; charset=utf-8', body: 'pod does not exist' });
  assert.deepEqual(await post('/checkpoint/default/nope/app'), { code: 404, type: 'text/plain; charset=utf-8', body: 'pod does not exist' });
  assert.deepEqual(await post('/checkpoint/default/web/nope'), { code: 404, type: 'text/plain; charset=utf-8', body: 'container nope does not exist' });
  assert.deepEqual(await post('/checkpoint/default/web/app?timeout=abc'), { code: 404, type: 'text/plain; charset=utf-8', body: 'cannot parse value of timeout parameter' });
  assert.equal(asked.length, 0, 'the runtime is not asked for what cannot be checkpointed');

  assert.deepEqual(await post('/checkpoint/default/web/app?timeout=200'), { code: 200, type: 'application/json', body: '{"items":["/root/checkpoints/checkpoint-web_default-app-2026-01-02T03:04:05Z.tar"]}' });
  assert.deepEqual(asked.pop(), { namespace: 'default', pod: 'web', container: 'app', containerId: 'id-app', timeoutSeconds: 200 });
  // a container the spec names but that is not running: the checkpointer decides (the kubelet's 500)
  await post('/checkpoint/default/web/init');
  assert.deepEqual(asked.pop(), { namespace: 'default', pod: 'web', container: 'init', containerId: undefined, timeoutSeconds: 0 });

  outcome = { error: 'rpc error: code = Unimplemented desc = method CheckpointContainer not implemented' };
  assert.deepEqual(await post('/checkpoint/default/web/app'), { code: 500, type: 'text/plain; charset=utf-8', body: 'checkpointing of default/web/app failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)' });
  assert.equal((await post('/checkpoint/default/web/app', 'PUT')).code, 405);
});
