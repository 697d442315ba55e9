// What a protocol module offers the server ends: told whether it takes an upgrade request, it
// completes the upgrade and hands back the session as streams (see protocols.ts for the table).

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CommandStreamOptions, CommandStreams, PortForwardStreams } from './streams.ts';

export interface StreamProtocolModule {
  name: string;
  acceptsCommand(req: IncomingMessage): boolean;
  acceptsPortForward(req: IncomingMessage): boolean;
  /** completes the upgrade and hands back the session's streams */
  command(req: IncomingMessage, socket: Duplex, head: Buffer, opts: CommandStreamOptions): Promise<CommandStreams>;
  portForward(req: IncomingMessage, socket: Duplex, head: Buffer, ports: readonly number[]): Promise<PortForwardStreams>;
}

