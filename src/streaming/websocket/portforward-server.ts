// The server end of port forwarding over WebSocket, as the kubelet serves it to client-node,
// the Python client and others: the ports are fixed by the request's query; port i has data on
// channel 2i and errors on 2i+1, and the first message on each begins with the port as two
// little-endian bytes. One socket carries one connection per port; it closes once all are done.

import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ForwardedConnection, PortForwardStreams } from '../streams.ts';
import { AsyncQueue } from '../queue.ts';
import { decodeFrame, encodeFrame, parseChannelProtocol, sendWindowBytes } from './channels.ts';

export function portPrefix(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port);
  return b;
}

export function portForwardOverWebSocket(ws: WebSocket, protocolName: string, ports: readonly number[]): PortForwardStreams {
  const p = parseChannelProtocol(protocolName)!;
  const closed = new Promise<void>(resolve => ws.once('close', () => resolve()));
  const connections = new AsyncQueue<ForwardedConnection>();
  const send = (channel: number, data: Buffer, cb?: (err?: Error) => void) => {
    if (ws.readyState === ws.OPEN) ws.send(encodeFrame(p, channel, data), cb);
    else cb?.();
  };
  let open = ports.length;
  const done = () => { if (--open === 0) ws.close(1000); };

  const streams = ports.map((port, i) => {
    let finished = false;
    const finish = () => { if (!finished) { finished = true; done(); } };
    const data = new Duplex({
      read() { ws.resume(); },
      write(chunk: Buffer, _enc, cb) {
        // frames are pipelined: the writer waits only when a window's worth is still unsent
        if (ws.bufferedAmount < sendWindowBytes) { send(2 * i, chunk); cb(); } else send(2 * i, chunk, err => cb(err ?? null));
      },
      final(cb) { finish(); cb(); },
    });
    const conn: ForwardedConnection = {
      port,
      requestId: String(i),
      data,
      fail(message) {
        send(2 * i + 1, Buffer.from(message));
        data.push(null);
        finish();
      },
    };
    return conn;
  });

  ws.on('message', (message: Buffer, isBinary: boolean) => {
    let frame;
    try { frame = decodeFrame(p, isBinary ? message : message.toString('utf8')); } catch { return; }
    if (frame.type !== 'data' || frame.channel % 2 !== 0) return;
    const conn = streams[frame.channel / 2];
    if (!conn || conn.data.readableEnded) return;
    if (!conn.data.push(frame.data)) ws.pause();
  });
  void closed.then(() => {
    for (const s of streams) { if (!s.data.readableEnded) s.data.push(null); }
    connections.end();
  });

  for (const [i, port] of ports.entries()) {
    send(2 * i, portPrefix(port));
    send(2 * i + 1, portPrefix(port));
  }
  for (const s of streams) connections.push(s);
  if (ports.length === 0) ws.close(1000);

  return {
    protocol: protocolName,
    connections,
    close: () => ws.close(1000),
    closed,
  };
}
