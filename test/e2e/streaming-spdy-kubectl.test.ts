// Real kubectl against the SPDY server ends: a tiny HTTPS API server (node's HTTP/2 server with
// HTTP/1.1 allowed, as orch's is) answers the pod lookups kubectl makes first and hands exec and
// port-forward upgrades to streaming/spdy. kubectl 1.27 speaks only SPDY (and 1.33 does for exec
// with WebSockets turned off); 1.33 tunnels its port-forward SPDY in WebSocket. The command
// echoes stdin and exits 3 (with a TTY it reports sizes and keys instead); the forwarded port is
// a local TCP echo server, port 81 one where nothing listens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createCa, issueCert } from '../../src/pki/certs.ts';
import { acceptSpdyCommand } from '../../src/streaming/spdy/command.ts';
import { acceptSpdyPortForward } from '../../src/streaming/spdy/portforward.ts';
import { acceptTunnelledPortForwardUpgrade, isSpdyTunnelRequest } from '../../src/streaming/spdy/tunnel.ts';
import type { CommandStreams, PortForwardStreams } from '../../src/streaming/streams.ts';
import type { Status } from '../../src/api/status.ts';
import { kubectl } from './support/kubectl.ts';
import { requires } from '../support/requires.ts';

const sdk = '/usr/lib/google-cloud-sdk/bin';
const k127 = `${sdk}/kubectl.1.27`;
const k133 = `${sdk}/kubectl.1.33`;

const pod = {
  kind: 'Pod', apiVersion: 'v1',
  metadata: { name: 'p', namespace: 'default', uid: '6d0f3c59-2b1e-4a8e-9c55-0a4f1f6f7b10', resourceVersion: '1' },
  spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
  status: { phase: 'Running' },
};
const discovery: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po'] },
    { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] },
    { name: 'pods/attach', singularName: '', namespaced: true, kind: 'PodAttachOptions', verbs: ['create', 'get'] },
    { name: 'pods/portforward', singularName: '', namespaced: true, kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  ] },
  '/api/v1/namespaces/default/pods/p': pod,
};

const exit3 = {
  metadata: {}, status: 'Failure', reason: 'NonZeroExitCode',
  message: 'command terminated with non-zero exit code: error executing command [cat], exit code 3',
  details: { causes: [{ reason: 'ExitCode', message: '3' }] },
} as unknown as Status;

const forwarded: string[] = [];
let dir = '';
let kubeconfig = '';
let server: http2.Http2SecureServer;
let echo: net.Server;
let echoPort = 0;
const used = { spdyExec: 0, spdyPortForward: 0, tunnel: 0 };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spdy-kubectl-'));
  const ca = await createCa('spdy-test-ca', 1);
  const tls = await issueCert(ca, { commonName: 'localhost', days: 1, usage: 'server', ips: ['127.0.0.1'] });
  echo = net.createServer(s => s.pipe(s));
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  echoPort = (echo.address() as net.AddressInfo).port;

  server = http2.createSecureServer({ allowHTTP1: true, cert: tls.cert, key: tls.key });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    const body = discovery[new URL(req.url, 'https://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'https://x');
    if (url.pathname === '/api/v1/namespaces/default/pods/p/exec' || url.pathname === '/api/v1/namespaces/default/pods/p/attach') {
      used.spdyExec++;
      const flag = (n: string) => url.searchParams.get(n) === 'true' || url.searchParams.get(n) === '1';
      acceptSpdyCommand(req, socket, head, { streams: { stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr'), tty: flag('tty') } }).then(c => {
        if (c.resize) { terminal(c); return; }
        c.stdin!.pipe(c.stdout!, { end: false });
        c.stdin!.on('end', () => c.finish(exit3));
      }, () => {});
    } else if (url.pathname === '/api/v1/namespaces/default/pods/p/portforward') {
      const tunnel = isSpdyTunnelRequest(req);
      if (tunnel) used.tunnel++; else used.spdyPortForward++;
      const accepted = tunnel ? acceptTunnelledPortForwardUpgrade(req, socket, head) : Promise.resolve().then(() => acceptSpdyPortForward(req, socket, head));
      accepted.then(relayToEcho, () => {});
    } else socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 't',
    clusters: [{ name: 't', cluster: { server: `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'u', user: { token: 'anything' } }],
    contexts: [{ name: 't', context: { cluster: 't', user: 'u', namespace: 'default' } }],
  }));
});

after(() => {
  if (forwarded.length > 0) console.log(`# ${forwarded.join('; ')}`);
  server?.close();
  echo?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// the fake terminal program: reports each size it is given, echoes keys, ends on 'q'
const sizes: string[] = [];
function terminal(c: CommandStreams): void {
  void (async () => { for await (const s of c.resize!) { sizes.push(`${s.width}x${s.height}`); c.stdout!.write(`[size ${s.width}x${s.height}]`); } })();
  c.stdin!.on('data', (b: Buffer) => {
    c.stdout!.write(`[key ${b.toString()}]`);
    if (b.includes('q')) c.finish(undefined);
  });
}

async function relayToEcho(pf: PortForwardStreams): Promise<void> {
  for await (const c of pf.connections) {
    if (c.port !== 80) { c.fail(`error forwarding port ${c.port} to pod p: nothing listens there`); continue; }
    const upstream = net.connect(echoPort, '127.0.0.1');
    upstream.on('error', err => c.fail(String(err)));
    c.data.pipe(upstream);
    upstream.pipe(c.data);
  }
}

test('kubectl 1.27 exec -i over SPDY: stdin echoed, exit code 3 from the v4 error channel', requires(!existsSync(k127) && `${k127} not installed`), async () => {
  const r = await kubectl(k127, kubeconfig, ['exec', '-i', 'p', '--', 'cat'], 'hello over spdy\n');
  assert.equal(r.stdout, 'hello over spdy\n');
  assert.match(r.stderr, /command terminated with exit code 3/);
  assert.equal(r.code, 3);
  assert.ok(used.spdyExec >= 1);
});

test('kubectl 1.33 exec -i with WebSockets turned off speaks SPDY too', requires(!existsSync(k133) && `${k133} not installed`), async () => {
  const before = used.spdyExec;
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>(resolve => {
    const child = execFile(k133, ['--kubeconfig', kubeconfig, 'exec', '-i', 'p', '--', 'cat'], { env: { ...process.env, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' } }, (err, stdout, stderr) => {
      resolve({ code: err ? (err as { code?: number }).code ?? 1 : 0, stdout, stderr });
    });
    child.stdin!.end('from 1.33\n');
  });
  assert.equal(r.stdout, 'from 1.33\n');
  assert.match(r.stderr, /command terminated with exit code 3/);
  assert.equal(r.code, 3);
  assert.equal(used.spdyExec, before + 1);
});

test('kubectl 1.27 attach -i takes the same path: stdin echoed, exit code 3', requires(!existsSync(k127) && `${k127} not installed`), async () => {
  const r = await kubectl(k127, kubeconfig, ['attach', '-i', 'p'], 'attached\n');
  assert.equal(r.stdout, 'attached\n');
  assert.match(r.stderr, /command terminated with exit code 3/);
  assert.equal(r.code, 3);
});

test('kubectl 1.27 exec -i carries 10 MB of stdin and back without stalling', requires(!existsSync(k127) && `${k127} not installed`), async () => {
  const input = Array.from({ length: 160_000 }, (_, i) => `line ${i} ${'y'.repeat(50)}\n`).join('').slice(0, 10 * 1024 * 1024);
  const started = performance.now();
  const r = await kubectl(k127, kubeconfig, ['exec', '-i', 'p', '--', 'cat'], input);
  assert.equal(r.code, 3);
  assert.equal(r.stdout.length, input.length);
  assert.ok(r.stdout === input, 'the bytes come back unchanged');
  assert.ok(performance.now() - started < 8000, `took ${Math.round(performance.now() - started)} ms`);
});

test('kubectl 1.27 exec -it under a pseudo-terminal: TTY, the terminal size on the resize stream, keys through', requires((!existsSync(k127) && `${k127} not installed`) || (!existsSync('/usr/bin/script') && 'script (util-linux) not installed')), async () => {
  // script gives kubectl a terminal of 101x31; kubectl sends that size, then the keys typed
  const child = spawn('/usr/bin/script', ['-qfec', `stty cols 101 rows 31; ${k127} --kubeconfig ${kubeconfig} exec -it p -- sh`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.includes('[size 101x31]') && !out.includes('[key')) child.stdin.write('q');
  });
  const [code] = await once(child, 'exit') as [number];
  assert.match(out, /\[size 101x31\]/);
  assert.match(out, /\[key q\]/);
  assert.equal(code, 0, out);
  assert.ok(sizes.includes('101x31'));
});

async function portForward(bin: string, remote = 80): Promise<string> {
  const child = spawn(bin, ['--kubeconfig', kubeconfig, 'port-forward', 'pod/p', `0:${remote}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /Forwarding from 127\.0\.0\.1:(\d+) -> \d+/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', code => reject(new Error(`kubectl exited ${code}: ${out}${err}`)));
    });
    if (remote !== 80) {
      // nothing listens there: the connection closes and kubectl reports the pod side's message
      const sock = net.connect(port, '127.0.0.1');
      sock.on('error', () => {});
      await once(sock, 'close');
      while (!/nothing listens there/.test(err)) await once(child.stderr, 'data');
      return err;
    }
    // two connections in turn, one of them 10 MiB, through the same session
    for (const payload of ['ping through the pod\n', 'x'.repeat(10 * 1024 * 1024)]) {
      const started = performance.now();
      const sock = net.connect(port, '127.0.0.1');
      await once(sock, 'connect');
      sock.write(payload);
      let got = '';
      for await (const c of sock) { got += (c as Buffer).toString(); if (got.length >= payload.length) break; }
      sock.destroy();
      assert.equal(got.length, payload.length);
      assert.equal(got, payload);
      if (payload.length > 1e6) forwarded.push(`${bin.split('.').slice(-2).join('.')}: 10 MiB echoed in ${Math.round(performance.now() - started)} ms`);
    }
  } finally {
    child.kill();
  }
  assert.doesNotMatch(err, /error/i);
  return err;
}

test('kubectl 1.27 port-forward over SPDY relays to the pod\'s port', requires(!existsSync(k127) && `${k127} not installed`), async () => {
  const before = used.spdyPortForward;
  await portForward(k127);
  assert.equal(used.spdyPortForward, before + 1);
});

test('kubectl 1.27 port-forward: a failure on the pod side reaches kubectl through the error stream', requires(!existsSync(k127) && `${k127} not installed`), async () => {
  const err = await portForward(k127, 81);
  assert.match(err, /an error occurred forwarding \d+ -> 81: error forwarding port 81 to pod p: nothing listens there/);
});

test('kubectl 1.33 port-forward tunnels SPDY in WebSocket', requires(!existsSync(k133) && `${k133} not installed`), async () => {
  const before = used.tunnel;
  await portForward(k133);
  assert.equal(used.tunnel, before + 1);
});
