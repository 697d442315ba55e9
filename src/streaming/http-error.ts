// A plain-text HTTP error written on a raw socket that was not upgraded, as Go's http.Error writes
// it (the kubelet's and containerd's streaming servers refuse this way): the agent's streaming
// routes, the simulated runtime's streaming server and the SPDY handshake share it.

import type { Duplex } from 'node:stream';
import { http } from './node-http.ts';

export function writeHttpError(socket: Duplex, code: number, message: string, headers: [string, string][] = []): void {
  const body = `${message}\n`;
  const lines = [
    `HTTP/1.1 ${code} ${http.STATUS_CODES[code] ?? 'Error'}`,
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
