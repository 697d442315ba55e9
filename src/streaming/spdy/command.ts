// exec and attach over SPDY, the server's end, as the kubelet serves them: after the upgrade the
// client opens one stream per channel, named by its `streamtype` header (error, stdin, stdout,
// stderr, resize); the command starts once every stream the request asked for has arrived, or
// the connection is dropped after the stream-creation timeout. The error channel's format is the
// protocol version's: v4 (and v5, which over SPDY the kubelet treats as v4) carries a JSON
// metav1 Status, success included; v1 to v3 carry only a failure's message as text.

import { once } from 'node:events';
import type { Duplex, Readable, Writable } from 'node:stream';
import type { Status } from '../../api/status.ts';
import type { CommandStreamOptions, CommandStreams, TerminalSize } from '../streams.ts';
import { acceptSpdyUpgrade, type UpgradeRequest } from './handshake.ts';
import { headerValue } from './header-block.ts';
import type { SpdySession } from './session.ts';
import type { SpdyStream } from './stream.ts';

/** the stream protocols the kubelet offers over SPDY, newest first */
export const SPDY_COMMAND_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;

/** the kubelet's default (remotecommand.DefaultStreamCreationTimeout) */
export const DEFAULT_STREAM_CREATION_TIMEOUT_MS = 30_000;

export interface SpdyCommandOptions {
  /** the streams the request's stdin/stdout/stderr/tty query asked for */
  streams: CommandStreamOptions;
  streamCreationTimeoutMs?: number;
  /** the connection closes after this long without traffic (kubelet: --streaming-connection-idle-timeout) */
  idleTimeoutMs?: number;
}

type Channel = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';
const channels: readonly string[] = ['error', 'stdin', 'stdout', 'stderr', 'resize'];

/** JSON-encoded status the kubelet writes on v4 when the command succeeded */
const v4Success = '{"metadata":{},"status":"Success"}';

/**
 * upgrades an exec/attach request (node's 'upgrade' event) to SPDY and resolves with the
 * client's streams once they have all arrived. A refused upgrade rejects with SpdyUpgradeError
 * after answering the client; a client that does not open its streams in time is disconnected.
 */
export function acceptSpdyCommand(req: UpgradeRequest, socket: Duplex, head: Buffer, opts: SpdyCommandOptions): Promise<CommandStreams> {
  let upgraded: { session: SpdySession; protocol: string };
  try {
    upgraded = acceptSpdyUpgrade(req, socket, head, SPDY_COMMAND_PROTOCOLS, opts.idleTimeoutMs);
  } catch (err) {
    return Promise.reject(err);
  }
  return commandStreamsOverSession(upgraded.session, upgraded.protocol, opts);
}

/** the command's streams on an established SPDY session (the server side of `protocol`) */
export function commandStreamsOverSession(session: SpdySession, protocol: string, opts: SpdyCommandOptions): Promise<CommandStreams> {
  const wanted = { ...opts.streams };
  // with a TTY the terminal merges stderr into stdout: the kubelet never waits for it
  if (wanted.tty) wanted.stderr = false;
  const resizable = protocol !== 'channel.k8s.io' && protocol !== 'v2.channel.k8s.io';
  const expected = 1 + Number(wanted.stdin) + Number(wanted.stdout) + Number(wanted.stderr) + Number(wanted.tty && resizable);
  const got = new Map<Channel, SpdyStream>();
  let arrived = 0;

  return new Promise<CommandStreams>((resolve, reject) => {
    const timer = setTimeout(() => {
      session.off('stream', onStream);
      void session.close();
      reject(new Error('timed out waiting for client to create streams'));
    }, opts.streamCreationTimeoutMs ?? DEFAULT_STREAM_CREATION_TIMEOUT_MS);
    void session.closed.then(() => {
      clearTimeout(timer);
      reject(new Error('connection closed before the client created its streams'));
    });
    function onStream(stream: SpdyStream): void {
      stream.reply();
      const type = headerValue(stream.headers, 'streamtype');
      if (!channels.includes(type)) { stream.resume(); return; }
      got.set(type as Channel, stream);
      if (++arrived < expected) return;
      clearTimeout(timer);
      session.off('stream', onStream);
      resolve(build(session, protocol, got));
    }
    session.on('stream', onStream);
  });
}

function build(session: SpdySession, protocol: string, got: Map<Channel, SpdyStream>): CommandStreams {
  const error = got.get('error');
  const stdin = got.get('stdin');
  const stdout = got.get('stdout');
  const stderr = got.get('stderr');
  const resize = got.get('resize');
  // what the client might send on channels it only reads is drained, so it never holds the connection
  for (const s of [error, stdout, stderr]) s?.resume();
  const v4 = protocol === 'v4.channel.k8s.io' || protocol === 'v5.channel.k8s.io';
  let finishing = false;
  return {
    protocol,
    stdin: stdin as Readable | undefined,
    stdout: stdout as Writable | undefined,
    stderr: stderr as Writable | undefined,
    // read without destroying it when the reader stops early (that would reset the client's stream)
    resize: resize ? terminalSizes(resize.iterator({ destroyOnReturn: false })) : undefined,
    finish(status: Status | undefined): void {
      if (finishing) return;
      finishing = true;
      void (async () => {
        // everything already written to stdout and stderr leaves before the outcome
        await Promise.all([stdout, stderr].map(s => s && ended(s)));
        const text = v4 ? (status ? JSON.stringify(status) : v4Success) : status && status.status !== 'Success' ? status.message ?? '' : '';
        if (error) await ended(error, text);
        await session.close();
      })();
    },
    closed: session.closed,
  };
}

async function ended(s: SpdyStream, last?: string): Promise<void> {
  if (s.writableFinished || s.destroyed) return;
  const done = Promise.race([once(s, 'finish'), once(s, 'close')]).catch(() => {});
  if (!s.writableEnded) s.end(last ? Buffer.from(last) : undefined);
  await done;
}

/**
 * the resize channel: JSON TerminalSize objects ({"Width":…,"Height":…}, as Go encodes them) one
 * after another, cut apart at the close of each top-level object
 */
export async function* terminalSizes(source: AsyncIterable<Buffer | string>): AsyncGenerator<TerminalSize> {
  let text = '';
  for await (const chunk of source) {
    text += chunk.toString();
    let depth = 0, inString = false, escaped = false, start = -1, consumed = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') { if (depth++ === 0) start = i; }
      else if (c === '}' && depth > 0 && --depth === 0) {
        consumed = i + 1;
        const size = parseSize(text.slice(start, i + 1));
        if (size) yield size;
      }
    }
    text = text.slice(consumed);
  }
}

function parseSize(json: string): TerminalSize | undefined {
  try {
    const v = JSON.parse(json) as { Width?: unknown; Height?: unknown };
    // Go decodes field names case-insensitively
    const get = (name: string): number => {
      const key = Object.keys(v).find(k => k.toLowerCase() === name);
      const n = key === undefined ? 0 : (v as Record<string, unknown>)[key];
      return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 0xffff ? n : 0;
    };
    return { width: get('width'), height: get('height') };
  } catch {
    return undefined;
  }
}
