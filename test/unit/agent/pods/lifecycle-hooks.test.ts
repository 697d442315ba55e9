// Lifecycle hooks: exec through the runtime, HTTP GET, sleep bounded by the time allowed, and
// failures worded as the kubelet words them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { runHook } from '../../../../src/agent/pods/lifecycle-hooks.ts';
import type { ProbeTarget } from '../../../../src/agent/pods/probe-check.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const pod = { metadata: { name: 'web', namespace: 'shop', uid: 'u-9' }, spec: { containers: [{ name: 'main', image: 'i' }] } } as unknown as Pod;
function target(exitCode: number, output = ''): ProbeTarget & { calls: unknown[] } {
  const calls: unknown[] = [];
  const cri = { execSync: async (req: unknown) => { calls.push(req); return { exitCode, stdout: Buffer.from(output), stderr: Buffer.alloc(0) }; } };
  return { cri: cri as never, containerId: 'c1', container: pod.spec.containers[0]!, podIP: '127.0.0.1', calls };
}

test('exec: run in the container with the time allowed; a failure in the kubelet\'s words', async () => {
  const ok = target(0);
  assert.equal(await runHook({ exec: { command: ['sh', '-c', 'true'] } }, ok, pod, 30, async () => {}), undefined);
  assert.deepEqual(ok.calls, [{ containerId: 'c1', cmd: ['sh', '-c', 'true'], timeout: 30 }]);
  const bad = await runHook({ exec: { command: ['false'] } }, target(1, 'boom'), pod, 5, async () => {});
  assert.equal(bad, 'Exec lifecycle hook ([false]) for Container "main" in Pod "web_shop(u-9)" failed - error: boom, message: "boom"');
});

test('sleep: the seconds asked for, never past the time allowed', async () => {
  const slept: number[] = [];
  await runHook({ sleep: { seconds: 5 } }, target(0), pod, 30, async ms => { slept.push(ms); });
  await runHook({ sleep: { seconds: 50 } }, target(0), pod, 3, async ms => { slept.push(ms); });
  assert.deepEqual(slept, [5000, 3000]);
});

test('httpGet: a 2xx/3xx succeeds; anything else fails with the path named', async t => {
  const server = http.createServer((req, res) => { res.statusCode = req.url === '/ok' ? 200 : 500; res.end(); });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  assert.equal(await runHook({ httpGet: { path: '/ok', port } }, target(0), pod, 5, async () => {}), undefined);
  assert.match((await runHook({ httpGet: { path: '/bad', port } }, target(0), pod, 5, async () => {}))!, /^HTTP lifecycle hook \(\/bad\) for Container "main" in Pod "web_shop\(u-9\)" failed - error: /);
});
