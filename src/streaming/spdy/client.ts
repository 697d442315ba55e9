// The client's end of SPDY streaming, as kubectl (client-go's SPDY executor and port forwarder)
// plays it: the upgrade request, then the streams it opens for a command or a forwarded
// connection. The tests drive the server ends with it, and a node agent can speak SPDY to a
// runtime's streaming server through it.

import { http } from '../node-http.ts';
import https from 'node:https';
import type { Duplex, Readable, Writable } from 'node:stream';
import type { Status } from '../../api/status.ts';
import type { CommandStreamOptions, TerminalSize } from '../streams.ts';
import { SPDY_31 } from './handshake.ts';
import { SpdySession } from './session.ts';
import type { SpdyStream } from './stream.ts';

export interface DialSpdyOptions {
  /** stream protocols offered, most preferred first (X-Stream-Protocol-Version) */
  protocols: readonly string[];
  /** kubectl POSTs exec, attach and port-forward upgrades */
  method?: string;
  headers?: Record<string, string>;
  /** TLS settings for https URLs (ca, cert, key, rejectUnauthorized, ...) */
  tls?: https.RequestOptions;
}

/** the server refused the upgrade: its status and body */
export class SpdyDialError extends Error {
  readonly statusCode: number;
  readonly body: string;
  constructor(statusCode: number, body: string) {
    super(`unable to upgrade connection: ${body.trim() || `HTTP ${statusCode}`}`);
    this.statusCode = statusCode;
    this.body = body;
  }
}

/** upgrades a request to SPDY/3.1 and opens the client's session */
export function dialSpdy(url: string | URL, opts: DialSpdyOptions): Promise<{ session: SpdySession; protocol: string }> {
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(target, {
      ...opts.tls,
      method: opts.method ?? 'POST',
      headers: { ...opts.headers, Connection: 'Upgrade', Upgrade: SPDY_31, 'X-Stream-Protocol-Version': opts.protocols.join(', ') },
    });
    req.on('upgrade', (res, socket, head) => {
      if (!String(res.headers.upgrade ?? '').toLowerCase().includes('spdy/3.1')) {
        socket.destroy();
        reject(new SpdyDialError(res.statusCode ?? 0, `unexpected upgrade to ${String(res.headers.upgrade)}`));
        return;
      }
      const protocol = String(res.headers['x-stream-protocol-version'] ?? '');
      resolve({ session: new SpdySession(socket, { server: false, head }), protocol });
    });
    req.on('response', res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => reject(new SpdyDialError(res.statusCode ?? 0, Buffer.concat(chunks).toString())));
    });
    req.on('error', reject);
    req.end();
  });
}

/** a command as its client sees it */
export interface CommandClient {
  stdin?: Writable;
  stdout?: Readable;
  stderr?: Readable;
  /** sends a terminal size (TTY only, v3 and later) */
  resize?(size: TerminalSize): void;
  /** the outcome on the error channel once the server ends it: a Status on v4, text before, undefined for none */
  outcome: Promise<Status | string | undefined>;
}

/** opens a command's streams in kubectl's order: error, stdin, stdout, stderr, resize */
export async function openCommandStreams(session: SpdySession, protocol: string, want: CommandStreamOptions): Promise<CommandClient> {
  const open = (type: string) => session.openStream({ streamtype: [type] });
  const error = await open('error');
  error.end(); // kubectl never writes on it
  const outcome = readAll(error).then(text => {
    if (text === '') return undefined;
    if (protocol === 'v4.channel.k8s.io' || protocol === 'v5.channel.k8s.io') return JSON.parse(text) as Status;
    return text;
  });
  const stdin = want.stdin ? await open('stdin') : undefined;
  const stdout = want.stdout ? await open('stdout') : undefined;
  const stderr = want.stderr && !want.tty ? await open('stderr') : undefined;
  const resizable = protocol !== 'channel.k8s.io' && protocol !== 'v2.channel.k8s.io';
  const resize = want.tty && resizable ? await open('resize') : undefined;
  for (const s of [stdout, stderr]) s?.end(); // read-only for the client
  return {
    stdin, stdout, stderr,
    resize: resize && ((size: TerminalSize) => { resize.write(`${JSON.stringify({ Width: size.width, Height: size.height })}\n`); }),
    outcome,
  };
}

/** one forwarded connection, as kubectl opens it: the error stream, then the data stream */
export async function openForwardedConnection(session: SpdySession, port: number, requestId: string): Promise<{ data: Duplex; error: Promise<string> }> {
  const headers = (type: string) => ({ streamtype: [type], port: [String(port)], requestid: [requestId] });
  const error = await session.openStream(headers('error'), { fin: true });
  const message = readAll(error);
  const data: SpdyStream = await session.openStream(headers('data'));
  return { data, error: message };
}

// by events, not for-await: that destroys the stream when reading ends, writing side included
function readAll(s: Readable): Promise<string> {
  return new Promise(resolve => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.once('end', () => resolve(Buffer.concat(chunks).toString()));
    s.once('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}
