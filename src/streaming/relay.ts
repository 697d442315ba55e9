// Joining two ends of a session: the streams a client's connection became (whatever protocol it
// spoke) and a session opened onward (the runtime's streaming server). Output is relayed before
// the outcome, so the client reads everything the command wrote and then how it ended; either
// side going away ends the other. Nothing relayed is looked at or logged.

import type { Duplex, Readable, Writable } from 'node:stream';
import type { Status } from '../api/status.ts';
import type { CommandStreams } from './streams.ts';
import { failureStatus } from './exit-status.ts';

/** the onward session, as a command client sees it */
export interface CommandSession {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  resize(size: { width: number; height: number }): void;
  status: Promise<Status | undefined>;
  close(): void;
}

function drained(r: Readable): Promise<void> {
  return new Promise(resolve => {
    if (r.readableEnded || r.destroyed) return resolve();
    r.once('end', () => resolve());
    r.once('close', () => resolve());
  });
}

function pipeTo(from: Readable, to: Writable | undefined): void {
  if (to) from.pipe(to, { end: false });
  else from.resume();
}

export async function relayCommand(client: CommandStreams, onward: CommandSession): Promise<void> {
  if (client.stdin) client.stdin.pipe(onward.stdin);
  else onward.stdin.end();
  pipeTo(onward.stdout, client.stdout);
  pipeTo(onward.stderr, client.stderr ?? client.stdout);
  if (client.resize) void (async () => { for await (const size of client.resize!) onward.resize(size); })();
  void client.closed.then(() => onward.close());
  let status: Status | undefined;
  try {
    status = await onward.status;
  } catch (err) {
    status = failureStatus(String((err as Error).message ?? err));
  }
  await Promise.all([drained(onward.stdout), drained(onward.stderr)]);
  client.finish(status);
  await client.closed;
}

/** bytes both ways between a forwarded connection and the port it reached; each end's end of
 * data ends the other's writing side, and an error on either ends both */
export function relayBytes(a: Duplex, b: Duplex): Promise<void> {
  a.pipe(b);
  b.pipe(a);
  a.once('error', () => b.destroy());
  b.once('error', () => a.destroy());
  const gone = (d: Duplex) => new Promise<void>(resolve => { if (d.destroyed) resolve(); else d.once('close', () => resolve()); });
  return Promise.all([gone(a), gone(b)]).then(() => undefined);
}
