// One HTTPS exchange with an extension API server: its serving certificate verified against the
// APIService's caBundle for the name <service>.<namespace>.svc (or not at all with
// insecureSkipTLSVerify), and orch's front-proxy client certificate presented.

import https from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { APIServiceSpec, ServiceRef } from './availability.ts';
import type { CertAndKey } from '../../pki/certs.ts';

export interface BackendTls {
  ref: ServiceRef;
  spec: APIServiceSpec;
  client: CertAndKey;
}

export function backendTlsOptions(tls: BackendTls): https.RequestOptions {
  const ca = tls.spec.caBundle ? Buffer.from(tls.spec.caBundle, 'base64').toString('utf8') : undefined;
  return {
    cert: tls.client.cert,
    key: tls.client.key,
    ...(tls.spec.insecureSkipTLSVerify ? { rejectUnauthorized: false } : { rejectUnauthorized: true, ca, servername: `${tls.ref.name}.${tls.ref.namespace}.svc` }),
  };
}

export function backendRequest(url: string, opts: { method: string; headers: OutgoingHttpHeaders; tls: BackendTls; signal?: AbortSignal; timeoutMs?: number; fresh?: boolean }, onResponse: (res: IncomingMessage) => void): import('node:http').ClientRequest {
  const req = https.request(url, { method: opts.method, headers: opts.headers, signal: opts.signal, timeout: opts.timeoutMs, ...(opts.fresh ? { agent: false } : {}), ...backendTlsOptions(opts.tls) }, onResponse);
  if (opts.timeoutMs) req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)));
  return req;
}

/** a GET whose whole body is read (the discovery check and the discovery document) */
export function backendGet(url: string, headers: OutgoingHttpHeaders, tls: BackendTls, timeoutMs: number): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // a connection of its own: a check must see the server as a new client would, not a kept-alive socket
    const req = backendRequest(url, { method: 'GET', headers, tls, timeoutMs, fresh: true }, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
