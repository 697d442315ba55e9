// Who sent a request: its client certificate first, then its bearer token. A request with
// neither is anonymous (undefined here; what anonymous may do is the authorizer's business). A
// request whose token nobody accepts is refused with 401, even when anonymous requests would be
// let in: a client that presents credentials must learn that they are wrong.

import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { unauthorized } from '../../api/status.ts';
import type { Logger } from '../../api/log.ts';
import type { User } from '../context.ts';
import type { ClientCertAuthenticator } from './client-cert.ts';
import { bearerToken, type TokenAuthenticator } from './token.ts';

export type RequestAuthenticator = (socket: TLSSocket | undefined, connection: object | undefined, headers: IncomingHttpHeaders) => Promise<User | undefined>;

const wsProtocolPrefix = 'base64url.bearer.authorization.k8s.io.';

/**
 * the bearer token a WebSocket client (a browser cannot set headers) sends as a subprotocol,
 * `base64url.bearer.authorization.k8s.io.<token in base64url>`
 */
export function webSocketToken(headers: IncomingHttpHeaders): string | undefined {
  if (String(headers.upgrade ?? '').toLowerCase() !== 'websocket') return undefined;
  const protocols = String(headers['sec-websocket-protocol'] ?? '').split(',').map(p => p.trim());
  const p = protocols.find(x => x.startsWith(wsProtocolPrefix));
  if (!p) return undefined;
  const token = Buffer.from(p.slice(wsProtocolPrefix.length), 'base64url').toString('utf8');
  return token || undefined;
}

export function createRequestAuthenticator(clientCert: ClientCertAuthenticator, tokens: TokenAuthenticator | undefined, log?: Logger): RequestAuthenticator {
  return async (socket, connection, headers) => {
    const certUser = socket ? clientCert(socket, connection ?? socket) : undefined;
    if (certUser) return certUser;
    const token = bearerToken(headers.authorization) ?? webSocketToken(headers);
    if (token === undefined || !tokens) return undefined;
    try {
      const r = await tokens.authenticate(token, []);
      if (r) return r.user;
    } catch (err) {
      log?.debug('bearer token rejected', { reason: (err as Error).message });
    }
    throw unauthorized();
  };
}
