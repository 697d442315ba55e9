// The SPDY client end against a real kubelet-style streaming server: containerd's, reached
// through the CRI Exec and PortForward calls, as a node agent relaying to the runtime would. The
// server side there is moby/spdystream (no WINDOW_UPDATE), so this also proves large transfers
// do not wait for windows that peer never opens.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connectCri } from '../../src/agent/cri/client.ts';
import { dialSpdy, openCommandStreams, openForwardedConnection } from '../../src/streaming/spdy/client.ts';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';

const image = 'docker.io/library/busybox:latest';
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.once('end', () => resolve(Buffer.concat(chunks)));
    s.once('error', reject);
  });
}

test('exec (10 MB through cat, exit code 3) and port-forward to httpd on containerd, through its SPDY streaming server', async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const runtime = await startContainerd();
  t.after(() => runtime.stop());
  await importBusyboxImage(runtime, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const cri = await connectCri(runtime.endpoint, { timeoutMs: 30_000 });
  t.after(() => cri.close());
  const logDir = join(runtime.dir, 'pods', 'default_spdy_uid1');
  await mkdir(logDir, { recursive: true });
  const sandboxConfig = { metadata: { name: 'spdy', namespace: 'default', uid: 'uid1', attempt: 0 }, hostname: 'spdy', logDirectory: logDir, linux: {} };
  const { podSandboxId } = await cri.runPodSandbox({ config: sandboxConfig });
  const { containerId } = await cri.createContainer({
    podSandboxId, sandboxConfig,
    config: { metadata: { name: 'web', attempt: 0 }, image: { image }, command: ['sh', '-c', 'mkdir -p /www && echo served-by-httpd > /www/index.html && exec httpd -f -p 80 -h /www'], logPath: 'web/0.log', linux: {} },
  });
  await cri.startContainer({ containerId });

  // exec: stdin through cat and back, then the exit code on the v4 error channel
  const { url } = await cri.exec({ containerId, cmd: ['sh', '-c', 'cat; echo done >&2; exit 3'], stdin: true, stdout: true, stderr: true, tty: false });
  const { session, protocol } = await dialSpdy(url, { protocols: ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] });
  assert.equal(protocol, 'v4.channel.k8s.io');
  const cmd = await openCommandStreams(session, protocol, { stdin: true, stdout: true, stderr: true, tty: false });
  const input = Buffer.alloc(10 * 1024 * 1024);
  for (let i = 0; i < input.length; i++) input[i] = (i * 7 + (i >> 12)) & 0xff;
  const started = performance.now();
  cmd.stdin!.end(input);
  const [out, err, outcome] = await Promise.all([readAll(cmd.stdout!), readAll(cmd.stderr!), cmd.outcome]);
  const ms = performance.now() - started;
  assert.equal(out.length, input.length);
  assert.equal(sha(out), sha(input));
  assert.equal(err.toString(), 'done\n');
  assert.equal((outcome as { reason?: string }).reason, 'NonZeroExitCode');
  assert.deepEqual((outcome as { details?: unknown }).details, { causes: [{ reason: 'ExitCode', message: '3' }] });
  t.diagnostic(`10 MiB through cat on containerd in ${Math.round(ms)} ms`);
  await session.close();

  // port-forward: an HTTP request to httpd inside the pod's network namespace
  const pf = await cri.portForward({ podSandboxId, port: [80] });
  const fwd = await dialSpdy(pf.url, { protocols: ['portforward.k8s.io'] });
  let page = '';
  for (let i = 0; i < 50 && !page.includes('served-by-httpd'); i++) {
    const { data, error } = await openForwardedConnection(fwd.session, 80, String(i));
    data.end('GET /index.html HTTP/1.0\r\n\r\n');
    page = (await readAll(data)).toString();
    const message = await error;
    if (!page.includes('served-by-httpd')) { assert.match(message, /connection refused|^$/); await new Promise(r => setTimeout(r, 100)); }
  }
  assert.match(page, /^HTTP\/1\.[01] 200 OK/);
  assert.match(page, /served-by-httpd/);
  await fwd.session.close();

  await cri.stopPodSandbox({ podSandboxId });
  await cri.removePodSandbox({ podSandboxId });
});
