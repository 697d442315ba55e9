// The connection layer under the REST client: HTTPS (or plain HTTP) with keep-alive agents,
// client certificates or a bearer token. Watches get their own agent so that long-lived
// streams never take the sockets ordinary requests queue for.

import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import type { ClientConfig } from './kubeconfig.ts';

const idempotent = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RawResponse { statusCode: number; headers: http.IncomingHttpHeaders; body: string }

export interface Transport {
  /** one request, its whole response body as text */
  send(method: string, path: string, headers: Record<string, string>, body?: Buffer, timeoutMs?: number): Promise<RawResponse>;
  /** a request whose response is read as a stream by the caller */
  stream(method: string, path: string, headers: Record<string, string>, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest;
  close(): void;
}

export function createTransport(cfg: ClientConfig, opts: { maxSockets?: number } = {}): Transport {
  const base = new URL(cfg.server);
  const secure = base.protocol === 'https:';
  if (!secure && base.protocol !== 'http:') throw new Error(`unsupported server URL ${cfg.server}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const host = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = base.port || (secure ? 443 : 80);
  // one secure context for every connection: building it parses the key and certificates,
  // which costs more than the handshake itself when connections come and go
  const tls = secure
    ? { secureContext: createSecureContext({ ca: cfg.ca, cert: cfg.cert, key: cfg.key }), servername: cfg.tlsServerName, rejectUnauthorized: !cfg.insecureSkipTLSVerify }
    : {};
  const makeAgent = (maxSockets: number) => secure
    ? new https.Agent({ keepAlive: true, maxSockets, ...tls })
    : new http.Agent({ keepAlive: true, maxSockets });
  const agent = makeAgent(opts.maxSockets ?? 32);
  const watchAgent = makeAgent(Infinity);
  const auth: Record<string, string> = cfg.token ? { authorization: `Bearer ${cfg.token}` } : {};

  const open = (a: http.Agent, method: string, path: string, headers: Record<string, string>, cb: (res: http.IncomingMessage) => void) =>
    (secure ? https : http).request({ host, port, method, path: prefix + path, agent: a, headers: { ...auth, ...headers }, ...tls }, cb);

  return {
    send(method, path, headers, body, timeoutMs) {
      const attempt = (retried: boolean): Promise<RawResponse> => new Promise((resolve, reject) => {
        const req = open(agent, method, path, body ? { ...headers, 'content-length': String(body.length) } : headers, res => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        if (timeoutMs) req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: no response within ${timeoutMs}ms`)));
        req.on('error', (err: NodeJS.ErrnoException) => {
          // the server closed an idle keep-alive connection just as we reused it: the request
          // never reached it, so an idempotent one is safe to send again
          if (!retried && req.reusedSocket && err.code === 'ECONNRESET' && idempotent.has(method)) return resolve(attempt(true));
          reject(err);
        });
        req.end(body);
      });
      return attempt(false);
    },
    stream(method, path, headers, onResponse) {
      return open(watchAgent, method, path, headers, onResponse);
    },
    close() {
      agent.destroy();
      watchAgent.destroy();
    },
  };
}
