// What a streamed command or port forward looks like to the code at either end, whatever
// protocol carried it (WebSocket channels, SPDY/3.1 streams, SPDY tunnelled in WebSocket). Each
// protocol module turns a connection into one of these, so the API server, the node agent and the
// simulated runtime deal in streams, never in frames.

import type { Duplex, Readable, Writable } from 'node:stream';
import type { Status } from '../api/status.ts';

export interface TerminalSize {
  width: number;
  height: number;
}

/** the streams a client asked for on exec or attach (the `stdin`, `stdout`, `stderr`, `tty` query) */
export interface CommandStreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** one exec or attach connection as its server end sees it */
export interface CommandStreams {
  /** the protocol agreed with the client, e.g. `v5.channel.k8s.io` or `v4.channel.k8s.io` */
  protocol: string;
  /** present when the client sends input; ends when the client closes it (v5 and SPDY can) */
  stdin?: Readable;
  stdout?: Writable;
  /** absent with a TTY: the terminal merges it into stdout */
  stderr?: Writable;
  /** terminal sizes the client sends, with a TTY */
  resize?: AsyncIterable<TerminalSize>;
  /** ends the exchange: the outcome on the error channel (undefined: success), then closes */
  finish(status: Status | undefined): void;
  /** settles when the connection is gone, whoever ended it */
  closed: Promise<void>;
}

/** one forwarded connection to a port of the pod */
export interface ForwardedConnection {
  port: number;
  /** the client's id for this connection (SPDY's `requestID`; WebSocket numbers them) */
  requestId: string;
  /** the bytes both ways */
  data: Duplex;
  /** reports why the connection to the port failed, then ends */
  fail(message: string): void;
}

/** a port-forward session as its server end sees it: connections arrive while it lasts */
export interface PortForwardStreams {
  protocol: string;
  connections: AsyncIterable<ForwardedConnection>;
  close(): void;
  closed: Promise<void>;
}
