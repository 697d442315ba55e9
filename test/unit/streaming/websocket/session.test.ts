// Both ends over a real loopback socket: the server end chosen from the protocol table, the
// client end this module's, for each framing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { commandModuleFor, portForwardModuleFor } from '../../../../src/streaming/protocols.ts';
import { dialCommand, UpgradeRefused } from '../../../../src/streaming/websocket/command-client.ts';
import { dialPortForward } from '../../../../src/streaming/websocket/portforward-client.ts';
import { exitCodeOf, exitStatus } from '../../../../src/streaming/exit-status.ts';
import type { TerminalSize } from '../../../../src/streaming/streams.ts';

async function withServer(onUpgrade: (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => void, fn: (url: string) => Promise<void>) {
  const server = http.createServer((_req, res) => res.writeHead(400).end());
  server.on('upgrade', onUpgrade);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  }
}

/** a "command" that upper-cases its input, says so on stderr and exits 3 */
function upperCaser(sizes: TerminalSize[]) {
  return (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const tty = new URL(req.url!, 'http://x').searchParams.get('tty') === '1';
    const mod = commandModuleFor(req);
    if (!mod) { socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'); return; }
    void mod.command(req, socket, head, { stdin: true, stdout: true, stderr: true, tty }).then(async s => {
      if (s.resize) void (async () => { for await (const size of s.resize!) sizes.push(size); })();
      const input = await text(s.stdin!);
      s.stdout!.write(input.toUpperCase());
      s.stderr?.write('done\n');
      s.finish(exitStatus(3, ['upper']));
    });
  };
}

for (const protocol of ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io']) {
  test(`a command session over ${protocol}: output, then the exit code`, async () => {
    await withServer(upperCaser([]), async url => {
      const c = await dialCommand(url, { protocols: [protocol] });
      assert.equal(c.protocol, protocol);
      const out = text(c.stdout), err = text(c.stderr);
      c.stdin.write('hello ');
      if (protocol.startsWith('v5')) c.stdin.end('world');
      else { c.stdin.write('world'); setTimeout(() => c.close(), 200); }
      if (protocol.startsWith('v5')) {
        assert.equal(await out, 'HELLO WORLD');
        assert.equal(await err, 'done\n');
        assert.equal(exitCodeOf(await c.status), 3);
      } else {
        // before v5 the end of stdin is the end of the socket: the command never sees it
        assert.equal(await out, '');
      }
    });
  });
}

test('v1 (channel.k8s.io) carries errors as text', async () => {
  await withServer((req, socket, head) => {
    void commandModuleFor(req)!.command(req, socket, head, { stdin: false, stdout: true, stderr: false, tty: false }).then(s => {
      s.stdout!.write('x');
      s.finish({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, message: 'it broke' });
    });
  }, async url => {
    const c = await dialCommand(url, { protocols: ['channel.k8s.io'] });
    assert.equal(await text(c.stdout), 'x');
    assert.equal((await c.status)?.message, 'it broke');
  });
});

test('terminal sizes reach the server with a TTY; stderr is merged', async () => {
  const sizes: TerminalSize[] = [];
  await withServer(upperCaser(sizes), async url => {
    const c = await dialCommand(`${url}/?tty=1`, { protocols: ['v5.channel.k8s.io'] });
    c.resize({ width: 100, height: 30 });
    const out = text(c.stdout);
    c.stdin.end('abc');
    assert.equal(await out, 'ABC');
    assert.equal(exitCodeOf(await c.status), 3);
    assert.deepEqual(sizes, [{ width: 100, height: 30 }]);
  });
});

test('an offer of no supported protocol is refused before the upgrade', async () => {
  await withServer((req, socket) => {
    if (!commandModuleFor(req)) socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\nno');
  }, async url => {
    await assert.rejects(dialCommand(url, { protocols: ['portforward.example.com'] }), (e: unknown) => e instanceof UpgradeRefused && e.code === 400);
  });
});

test('port forwarding: bytes both ways to a TCP listener, the port prefix stripped', async () => {
  const echo = net.createServer(s => s.on('data', d => s.end(`echo:${d}`)));
  await new Promise<void>(r => echo.listen(0, '127.0.0.1', r));
  const port = (echo.address() as AddressInfo).port;
  try {
    await withServer((req, socket, head) => {
      const ports = new URL(req.url!, 'http://x').searchParams.getAll('ports').map(Number);
      void portForwardModuleFor(req)!.portForward(req, socket, head, ports).then(async pf => {
        for await (const conn of pf.connections) {
          const tcp = net.connect(conn.port, '127.0.0.1');
          conn.data.pipe(tcp);
          tcp.pipe(conn.data);
        }
      });
    }, async url => {
      const d = await dialPortForward(`${url}/?ports=${port}`);
      d.write('ping');
      assert.equal(await text(d), 'echo:ping');
    });
  } finally {
    echo.close();
  }
});

test('port forwarding: a failure on the error channel ends the connection with it', async () => {
  await withServer((req, socket, head) => {
    void portForwardModuleFor(req)!.portForward(req, socket, head, [81]).then(async pf => {
      for await (const conn of pf.connections) conn.fail('error forwarding port 81 to pod x: connection refused');
    });
  }, async url => {
    const d = await dialPortForward(`${url}/?ports=81`);
    await assert.rejects(text(d), /connection refused/);
  });
});
