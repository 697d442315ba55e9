// Client-certificate authentication. The TLS server asks for a certificate (requestCert) but lets
// connections without one through (rejectUnauthorized: false) so that anonymous paths such as
// /healthz still answer; OpenSSL has then already checked the chain, validity dates and the
// clientAuth purpose against the server's `ca`, and reports the outcome in socket.authorized.
// The user is the subject's CN, its groups the O values, as in Kubernetes.

import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { Logger } from '../../api/log.ts';
import type { User } from '../context.ts';

export const AUTHENTICATED_GROUP = 'system:authenticated';

export type ClientCertAuthenticator = (socket: TLSSocket, connection?: object) => User | undefined;

export interface ClientCertOptions {
  /**
   * the cluster CA (PEM); when given, the verified chain must also contain it, so a server that
   * trusts further CAs for other purposes still takes users only from this one
   */
  caCert?: string;
  log?: Logger;
  /** the clock each request's certificate validity is checked against */
  now?: () => number;
}

function asList(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function chainIncludes(socket: TLSSocket, ca: X509Certificate): boolean {
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert?.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    if (cert.fingerprint256 === ca.fingerprint256) return true;
    const x = new X509Certificate(cert.raw);
    if (x.checkIssued(ca) && x.verify(ca.publicKey)) return true;
    cert = cert.issuerCertificate;
  }
  return false;
}

interface Known { user: User; validFrom: number; validTo: number }

/** the user a connection's certificate names, or undefined (no certificate, or one we do not trust) */
export function userFromSocket(socket: TLSSocket, opts: ClientCertOptions = {}, ca?: X509Certificate): User | undefined {
  return identify(socket, opts, ca)?.user;
}

/** the user and the certificate's validity */
function identify(socket: TLSSocket, opts: ClientCertOptions, ca?: X509Certificate): Known | undefined {
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.subject) return undefined; // no certificate sent: anonymous
  if (!socket.authorized) {
    opts.log?.debug('client certificate rejected', { reason: String(socket.authorizationError), subject: cert.subject.CN });
    return undefined;
  }
  if (ca && !chainIncludes(socket, ca)) {
    opts.log?.debug('client certificate rejected', { reason: 'not issued by the cluster CA', subject: cert.subject.CN });
    return undefined;
  }
  const name = asList(cert.subject.CN)[0];
  if (!name) return undefined; // Kubernetes takes no user from a certificate without a common name
  const groups = asList(cert.subject.O).filter(g => g !== AUTHENTICATED_GROUP);
  return { user: { name, groups: [...groups, AUTHENTICATED_GROUP] }, validFrom: Date.parse(cert.valid_from), validTo: Date.parse(cert.valid_to) };
}

/**
 * one connection carries many requests (HTTP/2 streams, HTTP/1.1 keep-alive): the certificate is
 * read once per connection, keyed by the HTTP/2 session or the TLS socket. Its validity is checked
 * on every request, as kube-apiserver verifies the chain per request: a connection outliving its
 * certificate does not keep the identity (its next request is a 401).
 */
export function createClientCertAuthenticator(opts: ClientCertOptions = {}): ClientCertAuthenticator {
  const ca = opts.caCert ? new X509Certificate(opts.caCert) : undefined;
  const now = opts.now ?? Date.now;
  const byConnection = new WeakMap<object, Known | null>();
  return (socket, connection = socket) => {
    let known = byConnection.get(connection);
    if (known === undefined) {
      known = identify(socket, opts, ca) ?? null;
      byConnection.set(connection, known);
    }
    if (!known) return undefined;
    const t = now();
    return t < known.validFrom || t > known.validTo ? undefined : known.user;
  };
}

/** trusts the TLS layer's verdict (the server's `ca` is the cluster CA alone) */
export const authenticateClientCert: ClientCertAuthenticator = createClientCertAuthenticator();
