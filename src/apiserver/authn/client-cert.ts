// Client-certificate authentication: the TLS layer has already verified the chain against the
// cluster CA (requestCert with our CA); the user is the subject's CN, the groups its O values.

import type { TLSSocket } from 'node:tls';
import type { User } from '../context.ts';

function asList(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

// one connection carries many requests (HTTP/2 streams): parse its certificate once per
// connection, keyed by the HTTP/2 session or the HTTP/1.1 socket
const byConnection = new WeakMap<object, User | null>();

export function authenticateClientCert(socket: TLSSocket, connection: object = socket): User | undefined {
  let user = byConnection.get(connection);
  if (user === undefined) {
    user = fromCertificate(socket) ?? null;
    byConnection.set(connection, user);
  }
  return user ?? undefined;
}

function fromCertificate(socket: TLSSocket): User | undefined {
  if (!socket.authorized) return undefined;
  const cert = socket.getPeerCertificate();
  const cn = cert?.subject?.CN;
  const name = Array.isArray(cn) ? cn[0] : cn;
  if (!name) return undefined;
  return { name, groups: [...asList(cert.subject.O), 'system:authenticated'] };
}
