// The client end of exec and attach over the WebSocket channel protocols: what the node agent
// uses to reach a runtime's streaming server, and what tests and the bench drive the API server
// with. It offers v5 first so that stdin can be ended without ending the session, and falls to
// what the server picks (containerd 1.6's streaming server knows up to v4).

import { PassThrough, Writable } from 'node:stream';
import type { WebSocket, ClientOptions } from 'ws';
import { wsLibrary } from './ws-library.ts';
import type { Status } from '../../api/status.ts';
import type { TerminalSize } from '../streams.ts';
import { commandProtocolNames, decodeFrame, encodeClose, encodeFrame, encodeResize, errorChannel, parseChannelProtocol, resizeChannel, stderrChannel, stdinChannel, stdoutChannel } from './channels.ts';
import { channelStatus, failureStatus } from '../exit-status.ts';

export interface DialOptions {
  /** subprotocols to offer, preferred first */
  protocols?: readonly string[];
  /** TLS client certificate and what to trust, for https/wss URLs */
  tls?: { cert?: string; key?: string; ca?: string; rejectUnauthorized?: boolean };
  headers?: Record<string, string>;
}

export interface CommandClient {
  protocol: string;
  stdin: Writable;
  stdout: PassThrough;
  stderr: PassThrough;
  resize(size: TerminalSize): void;
  /** the outcome from the error channel (undefined: success), once the session has ended */
  status: Promise<Status | undefined>;
  close(): void;
}

/** ws://, wss://, http:// and https:// URLs alike (the CRI hands out http ones) */
export function webSocketUrl(url: string): string {
  return url.replace(/^http(s?):/, 'ws$1:');
}

/**
 * opens the socket; rejects with the server's answer when it refuses the upgrade. `onMessage` is
 * attached at once: a server's first messages can arrive with its handshake answer, before a
 * caller awaiting the socket would have attached anything.
 */
export function openWebSocket(url: string, opts: DialOptions, fallback: readonly string[], onMessage: (ws: WebSocket, message: Buffer, isBinary: boolean) => void): Promise<WebSocket> {
  const wsOpts: ClientOptions = { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024, headers: opts.headers, ...opts.tls };
  const ws = new (wsLibrary().WebSocket)(webSocketUrl(url), [...(opts.protocols ?? fallback)], wsOpts);
  ws.on('message', (message: Buffer, isBinary: boolean) => onMessage(ws, message, isBinary));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => reject(new UpgradeRefused(res.statusCode ?? 0, body.trim())));
    });
    ws.once('error', reject);
  });
}

export class UpgradeRefused extends Error {
  readonly code: number;
  readonly body: string;
  constructor(code: number, body: string) {
    super(`the upgrade was refused (${code}): ${body}`);
    this.code = code;
    this.body = body;
  }
}

export async function dialCommand(url: string, opts: DialOptions = {}): Promise<CommandClient> {
  const stdout = new PassThrough(), stderr = new PassThrough();
  let status: Status | undefined;
  let p = parseChannelProtocol('')!;
  const ws = await openWebSocket(url, opts, commandProtocolNames, (ws, message, isBinary) => {
    p = parseChannelProtocol(ws.protocol) ?? p;
    let frame;
    try { frame = decodeFrame(p, isBinary ? message : message.toString('utf8')); } catch { return; }
    if (frame.type === 'close') {
      if (frame.channel === stdoutChannel) stdout.end();
      if (frame.channel === stderrChannel) stderr.end();
      return;
    }
    if (frame.type !== 'data' || frame.data.length === 0) return;
    const target = frame.channel === stdoutChannel ? stdout : frame.channel === stderrChannel ? stderr : undefined;
    if (target && !target.writableEnded) {
      if (!target.write(frame.data)) { ws.pause(); target.once('drain', () => ws.resume()); }
    } else if (frame.channel === errorChannel) {
      status = readStatus(p.version, frame.data);
    }
  });
  p = parseChannelProtocol(ws.protocol) ?? p;
  const closed = new Promise<void>(resolve => ws.once('close', () => { stdout.end(); stderr.end(); resolve(); }));
  ws.on('error', () => {});
  const stdin = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (ws.readyState !== ws.OPEN) return cb();
      ws.send(encodeFrame(p, stdinChannel, chunk), err => cb(err ?? null));
    },
    final(cb) {
      if (p.version >= 5 && ws.readyState === ws.OPEN) ws.send(encodeClose(stdinChannel), () => cb());
      else cb();
    },
  });
  return {
    protocol: ws.protocol,
    stdin,
    stdout,
    stderr,
    resize(size) { if (ws.readyState === ws.OPEN && p.version >= 3) ws.send(encodeFrame(p, resizeChannel, encodeResize(size))); },
    status: closed.then(() => status),
    close: () => ws.close(1000),
  };
}

/** the error channel's message: a Status from v4 on (Success is no failure), text before */
function readStatus(version: number, data: Buffer): Status | undefined {
  const text = data.toString('utf8');
  if (version < 4) return text ? failureStatus(text) : undefined;
  try {
    const s = JSON.parse(text) as Status;
    return channelStatus(s);
  } catch {
    return failureStatus(text);
  }
}
