// The client end of WebSocket port forwarding to one port: tests and the bench open one per
// connection through the API server (`?ports=N`) or at a runtime's streaming URL (`?port=N`). The data channel's bytes come out of a Duplex, without the two-byte
// port prefix; text on the error channel ends it with that error.

import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { decodeFrame, encodeFrame, parseChannelProtocol, portForwardProtocolNames, sendWindowBytes } from './channels.ts';
import { openWebSocket, type DialOptions } from './command-client.ts';

export async function dialPortForward(url: string, opts: DialOptions = {}): Promise<Duplex> {
  const prefixed = [true, true];
  let error = '';
  let socket: WebSocket | undefined;
  let p = parseChannelProtocol('')!;
  const data = new Duplex({
    read() { socket?.resume(); },
    write(chunk: Buffer, _enc, cb) {
      if (socket?.readyState !== socket?.OPEN) return cb(new Error('the port-forward connection is closed'));
      // pipelined, as the server end's writes are
      if (socket!.bufferedAmount < sendWindowBytes) { socket!.send(encodeFrame(p, 0, chunk)); cb(); } else socket!.send(encodeFrame(p, 0, chunk), err => cb(err ?? null));
    },
    // the protocol cannot say "no more from me" without ending the session: the socket stays
    // open for the answer until the other side closes it or this end is destroyed
    final(cb) { cb(); },
    destroy(err, cb) { socket?.terminate(); cb(err); },
  });
  const ws = await openWebSocket(url, opts, portForwardProtocolNames, (ws, message, isBinary) => {
    p = parseChannelProtocol(ws.protocol) ?? p;
    let frame;
    try { frame = decodeFrame(p, isBinary ? message : message.toString('utf8')); } catch { return; }
    if (frame.type !== 'data' || frame.channel > 1) return;
    let bytes = frame.data;
    if (prefixed[frame.channel]) { prefixed[frame.channel] = false; bytes = bytes.subarray(2); }
    if (frame.channel === 1) { error += bytes.toString('utf8'); return; }
    if (bytes.length && !data.push(bytes)) ws.pause();
  });
  socket = ws;
  p = parseChannelProtocol(ws.protocol) ?? p;
  ws.on('error', () => {});
  ws.once('close', () => {
    if (error) data.destroy(new Error(error));
    else data.push(null);
  });
  return data;
}
