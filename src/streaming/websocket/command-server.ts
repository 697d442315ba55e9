// The server end of exec and attach over Kubernetes' WebSocket channel protocols: an accepted
// socket turned into CommandStreams. Channel 0 is the client's stdin, 1 and 2 stdout and stderr,
// 3 the error channel (the outcome: text up to v3, a Status from v4), 4 terminal sizes (v3 on).
// From v5 the client can end stdin with [255, 0]; before it, stdin ends only with the socket.

import { PassThrough, Writable } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Status } from '../../api/status.ts';
import type { CommandStreamOptions, CommandStreams, TerminalSize } from '../streams.ts';
import { AsyncQueue } from '../queue.ts';
import { statusJson } from '../exit-status.ts';
import {
  decodeFrame, decodeResize, encodeFrame, errorChannel, parseChannelProtocol, resizeChannel, sendWindowBytes, stderrChannel, stdinChannel, stdoutChannel,
  type ChannelProtocol,
} from './channels.ts';

/**
 * a Writable whose chunks leave as messages on one channel, each after the one before was sent.
 * Its end is not announced: clients (kubectl's v5 among them) take the close signal only from
 * the client's side, and the outcome on the error channel ends the output anyway.
 */
export function channelWriter(ws: WebSocket, p: ChannelProtocol, channel: number): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (ws.readyState !== ws.OPEN) return cb();
      // pipelined: the writer waits only when a window's worth is still unsent
      if (ws.bufferedAmount < sendWindowBytes) { ws.send(encodeFrame(p, channel, chunk)); cb(); } else ws.send(encodeFrame(p, channel, chunk), err => cb(err ?? null));
    },
  });
}

export function commandStreamsOverWebSocket(ws: WebSocket, protocolName: string, opts: CommandStreamOptions): CommandStreams {
  const p = parseChannelProtocol(protocolName)!;
  const stdin = opts.stdin ? new PassThrough() : undefined;
  const resize = opts.tty && p.version >= 3 ? new AsyncQueue<TerminalSize>() : undefined;
  const stdout = opts.stdout ? channelWriter(ws, p, stdoutChannel) : undefined;
  const stderr = opts.stderr && !opts.tty ? channelWriter(ws, p, stderrChannel) : undefined;
  const closed = new Promise<void>(resolve => ws.once('close', () => resolve()));

  ws.on('message', (message: Buffer, isBinary: boolean) => {
    let frame;
    try {
      frame = decodeFrame(p, isBinary ? message : message.toString('utf8'));
    } catch {
      return; // an undecodable message is dropped, as the kubelet logs and skips it
    }
    if (frame.type === 'close') {
      if (frame.channel === stdinChannel) stdin?.end();
      return;
    }
    if (frame.type !== 'data') return;
    if (frame.channel === stdinChannel && stdin && !stdin.writableEnded) {
      // a command that reads slowly slows the client down rather than filling memory
      if (!stdin.write(frame.data)) { ws.pause(); stdin.once('drain', () => ws.resume()); }
    } else if (frame.channel === resizeChannel && resize) {
      const size = decodeResize(frame.data);
      if (size) resize.push(size);
    }
  });
  void closed.then(() => { stdin?.end(); resize?.end(); });

  // the kubelet's first message: an empty one on the lowest channel it writes, so the client
  // knows the streams are there before any output
  ws.send(encodeFrame(p, stdout ? stdoutChannel : stderr ? stderrChannel : errorChannel, new Uint8Array(0)));

  let finished = false;
  const ended = (w: Writable | undefined) => new Promise<void>(resolve => {
    if (!w || w.writableFinished || w.destroyed) return resolve();
    w.once('finish', () => resolve());
    w.once('close', () => resolve());
    w.end();
  });
  return {
    protocol: protocolName,
    stdin,
    stdout,
    stderr,
    resize,
    finish(status: Status | undefined) {
      if (finished) return;
      finished = true;
      // output already written goes first: the outcome is the last thing the client reads
      void Promise.all([ended(stdout), ended(stderr)]).then(() => {
        if (ws.readyState !== ws.OPEN) return;
        // the close follows once the outcome is on the wire: a client that reads a frame per
        // readable event (the Python client polls the raw socket) must see them arrive apart
        const close = () => ws.close(1000);
        if (p.version >= 4) ws.send(encodeFrame(p, errorChannel, Buffer.from(statusJson(status))), close);
        else if (status) ws.send(encodeFrame(p, errorChannel, Buffer.from(status.message ?? '')), close);
        else close();
      });
    },
    closed,
  };
}
