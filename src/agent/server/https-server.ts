// The agent's HTTPS endpoint (port 10250): every request, upgrades included, passes the access
// gate first (auth/access.ts: authentication, then authorization as the configuration says; by
// default client certificates of the client CA, all allowed). Routes are added by the parts of
// the agent that serve them (health here; logs, streams, stats and checkpoints elsewhere).

import { createServer as createHttpsServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { http } from '../../streaming/node-http.ts';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../api/log.ts';
import type { CertAndKey } from '../../pki/certs.ts';
import type { HealthRegistry } from './health.ts';
import { accessGate, type AccessAnswer, type AccessGate } from './auth/access.ts';
import { requestAuthenticator } from './auth/authenticator.ts';
import { alwaysAllow } from './auth/authorizer.ts';

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;
/** an HTTP/1.1 upgrade (exec, attach, port-forward): the route owns the raw socket */
export type UpgradeRoute = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => Promise<void>;

/** where a serving certificate that changes comes from (serverTLSBootstrap); none yet: no handshake */
export interface ServingSource { current(): CertAndKey | undefined }

export interface AgentServerOptions {
  address: string;
  port: number;
  serving: CertAndKey | ServingSource;
  /** PEM bundle of the CAs whose client certificates are accepted */
  clientCA: string;
  health: HealthRegistry;
  /** who may do what (authentication.*, authorization.* of the configuration); absent: clientCA certificates, all allowed */
  access?: AccessGate;
  /** extra lines for /healthz?verbose (kernel features, ...) */
  verboseLines?: () => string[];
  log: Logger;
}

export interface AgentServer {
  port: number;
  /** prefix → handler; the longest matching prefix wins */
  route(prefix: string, handler: Route): void;
  /** prefix → handler for upgrade requests; the longest matching prefix wins */
  upgradeRoute(prefix: string, handler: UpgradeRoute): void;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, answer: Exclude<AccessAnswer, { ok: true }>): void {
  res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8' }).end(answer.body);
}

const reasons = { 401: 'Unauthorized', 403: 'Forbidden', 500: 'Internal Server Error' } as const;

function refuseUpgrade(socket: Duplex, answer: Exclude<AccessAnswer, { ok: true }>): void {
  const body = Buffer.from(answer.body);
  socket.end(`HTTP/1.1 ${answer.status} ${reasons[answer.status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${answer.body}`);
}

export function answerHealth(health: HealthRegistry, url: URL, res: ServerResponse, verboseLines?: () => string[]): void {
  const verbose = url.searchParams.has('verbose');
  const [code, body] = health.answer(url.pathname, verbose, verbose ? verboseLines?.() : undefined);
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }).end(body);
}

export async function startAgentServer(opts: AgentServerOptions): Promise<AgentServer> {
  const routes = new Map<string, Route>();
  const upgrades = new Map<string, UpgradeRoute>();
  const longest = (keys: Iterable<string>, path: string) => [...keys].filter(p => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`)).sort((a, b) => b.length - a.length)[0];
  routes.set('/healthz', (_req, res, url) => answerHealth(opts.health, url, res, opts.verboseLines));
  const access = opts.access ?? accessGate('', requestAuthenticator({ anonymous: false }), alwaysAllow);
  const admitted = async (req: IncomingMessage): Promise<AccessAnswer> => {
    const answer = await access(req);
    if (!answer.ok) opts.log.debug('agent request refused', { path: req.url, status: answer.status, why: answer.why ?? answer.body });
    return answer;
  };

  const fixed = 'cert' in opts.serving ? opts.serving : undefined;
  const server: Server = createHttpsServer({ ...(fixed ? { cert: fixed.cert, key: fixed.key } : {}), ca: opts.clientCA, requestCert: true, rejectUnauthorized: false }, async (req, res) => {
    const answer = await admitted(req).catch(err => ({ ok: false, status: 500, body: String((err as Error).message ?? err) }) as const);
    if (!answer.ok) return refuse(res, answer);
    const url = new URL(req.url ?? '/', 'https://agent');
    const prefix = longest(routes.keys(), url.pathname);
    if (!prefix) { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
    Promise.resolve(routes.get(prefix)!(req, res, url)).catch(err => {
      opts.log.error('agent request failed', { path: url.pathname, err: String(err) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${(err as Error).message ?? err}\n`);
    });
  });
  if (!fixed) servedFrom(server, opts.serving as ServingSource, opts.clientCA, opts.log);
  const upgraded = new Set<Duplex>();
  server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const answer = await admitted(req).catch(err => ({ ok: false, status: 500, body: String((err as Error).message ?? err) }) as const);
    if (!answer.ok) { refuseUpgrade(socket, answer); return; }
    const url = new URL(req.url ?? '/', 'https://agent');
    const prefix = longest(upgrades.keys(), url.pathname);
    if (!prefix) { socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 19\r\nConnection: close\r\n\r\n404 page not found\n'); return; }
    upgrades.get(prefix)!(req, socket, head, url).catch(err => {
      opts.log.error('agent upgrade failed', { path: url.pathname, err: String(err) });
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(opts.port, opts.address, () => resolve()); });
  return {
    port: (server.address() as AddressInfo).port,
    route(prefix, handler) { routes.set(prefix, handler); },
    upgradeRoute(prefix, handler) { upgrades.set(prefix, handler); },
    close: () => new Promise(r => { for (const s of upgraded) s.destroy(); server.closeAllConnections(); server.close(() => r()); }),
  };
}

// a fatal TLS alert record, internal_error: what a Go server sends when GetCertificate fails, and
// clients print as "remote error: tls: internal error"
const internalErrorAlert = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x50]);

/**
 * each new connection is served with the source's certificate at that moment (connections already
 * open keep theirs); with none, the handshake is refused as the kubelet refuses it
 */
function servedFrom(server: Server, source: ServingSource, clientCA: string, log: Logger): void {
  let applied: CertAndKey | undefined;
  server.prependListener('connection', (socket: Duplex & { remoteAddress?: string }) => {
    const pair = source.current();
    if (!pair) {
      log.debug('http: TLS handshake error: no serving certificate available for the agent', { from: socket.remoteAddress });
      socket.on('error', () => undefined);
      socket.end(internalErrorAlert);
      return;
    }
    if (pair !== applied) {
      server.setSecureContext({ cert: pair.cert, key: pair.key, ca: clientCA });
      applied = pair;
    }
  });
  // the refused connections' TLS side fails too; that is expected, not an error
  server.on('tlsClientError', () => undefined);
}

/** the unauthenticated local health port (healthzPort, 10248 on 127.0.0.1), as the kubelet has */
export async function startHealthzServer(address: string, port: number, health: HealthRegistry): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://agent');
    if (url.pathname !== '/healthz' && !url.pathname.startsWith('/healthz/')) { res.writeHead(404).end('404 page not found\n'); return; }
    answerHealth(health, url, res);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, address, () => resolve()); });
  return { port: (server.address() as AddressInfo).port, close: () => new Promise(r => { server.closeAllConnections(); server.close(() => r()); }) };
}
