// A small REST client for the Kubernetes API: JSON requests over HTTPS with keep-alive, and
// watches read as a stream of JSON lines. Errors carry the server's Status.

import http from 'node:http';
import https from 'node:https';
import type { Status } from '../api/status.ts';
import type { ClientConfig } from './kubeconfig.ts';
import { lineSplitter } from './json-lines.ts';

export class ApiError extends Error {
  status: Status;
  constructor(status: Status) {
    super(status.message ?? `HTTP ${status.code}`);
    this.name = 'ApiError';
    this.status = status;
  }
  get code(): number { return this.status.code; }
}

export interface WatchEvent { type: string; object: any }

export interface Client {
  request<T = any>(method: string, path: string, body?: unknown, contentType?: string): Promise<T>;
  /** streams events until stop() or the server ends it (onEnd gets the reason) */
  watch(path: string, onEvent: (e: WatchEvent) => void, onEnd: (err?: Error) => void): { stop(): void };
  close(): void;
}

export function createClient(cfg: ClientConfig): Client {
  const base = new URL(cfg.server);
  const secure = base.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, ca: cfg.ca, cert: cfg.cert, key: cfg.key, maxSockets: 16 })
    : new http.Agent({ keepAlive: true, maxSockets: 16 });
  const headers = (extra: Record<string, string> = {}) => ({ accept: 'application/json', ...(cfg.token ? { authorization: `Bearer ${cfg.token}` } : {}), ...extra });
  const open = (method: string, path: string, h: Record<string, string>, cb: (res: http.IncomingMessage) => void) =>
    (secure ? https : http).request({ host: base.hostname, port: base.port, method, path, agent, headers: h }, cb);

  return {
    request(method, path, body, contentType = 'application/json') {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const req = open(method, path, headers(payload ? { 'content-type': contentType } : {}), res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: any;
            try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
            if (res.statusCode! >= 200 && res.statusCode! < 300) return resolve(parsed);
            const status: Status = parsed?.kind === 'Status' ? parsed : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: res.statusCode!, message: text.slice(0, 200) };
            reject(new ApiError(status));
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    watch(path, onEvent, onEnd) {
      let done = false;
      const finish = (err?: Error) => { if (!done) { done = true; onEnd(err); } };
      const req = open('GET', path, headers(), res => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            try { finish(new ApiError(JSON.parse(Buffer.concat(chunks).toString('utf8')))); } catch { finish(new Error(`watch failed: HTTP ${res.statusCode}`)); }
          });
          return;
        }
        res.setEncoding('utf8');
        res.on('data', lineSplitter(line => onEvent(JSON.parse(line))));
        res.on('end', () => finish());
        res.on('error', err => finish(err));
      });
      req.on('error', err => finish(err));
      req.end();
      return { stop() { done = true; req.destroy(); } };
    },
    close() { agent.destroy(); },
  };
}

/** the API path of a collection or object */
export function resourcePath(r: { group: string; version: string; resource: string; namespace?: string; name?: string; subresource?: string }): string {
  let p = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  if (r.namespace) p += `/namespaces/${encodeURIComponent(r.namespace)}`;
  p += `/${r.resource}`;
  if (r.name) p += `/${encodeURIComponent(r.name)}`;
  if (r.subresource) p += `/${r.subresource}`;
  return p;
}
