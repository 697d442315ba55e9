// Raw HTTPS requests with the admin client certificate from a kubeconfig, for checking exact
// status codes, headers and bodies.

import { readFileSync } from 'node:fs';
import https from 'node:https';
import { parse } from 'yaml';
import { lineSplitter } from '../../../src/client/json-lines.ts';

export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; body: string; json(): any }

export interface WatchReader {
  events: Array<{ type: string; object: any }>;
  status(): number;
  /** resolves when at least n events arrived (rejects after ms) */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): void;
}

export interface RawClient {
  watch(path: string): Promise<WatchReader>;
  request(method: string, path: string, opts?: { body?: string | Buffer; headers?: Record<string, string>; anonymous?: boolean }): Promise<RawResponse>;
}

export function rawClient(kubeconfigPath: string): RawClient {
  const kc = parse(readFileSync(kubeconfigPath, 'utf8'));
  const cluster = kc.clusters[0].cluster;
  const user = kc.users[0].user;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const base = new URL(cluster.server);
  const ca = b64(cluster['certificate-authority-data']);
  const cert = b64(user['client-certificate-data']);
  const key = b64(user['client-key-data']);
  return {
    watch(path) {
      return new Promise((resolve, reject) => {
        const events: WatchReader['events'] = [];
        const req = https.request({ host: base.hostname, port: base.port, method: 'GET', path, ca, cert, key }, res => {
          res.setEncoding('utf8');
          res.on('data', lineSplitter(line => events.push(JSON.parse(line))));
          res.on('error', () => {});
          resolve({
            events,
            status: () => res.statusCode!,
            async waitFor(n, ms = 5000) {
              const end = Date.now() + ms;
              while (events.length < n) {
                if (Date.now() > end) throw new Error(`only ${events.length} of ${n} watch events: ${JSON.stringify(events)}`);
                await new Promise(r => setTimeout(r, 10));
              }
            },
            close() { req.destroy(); },
          });
        });
        req.on('error', err => { if (!(err as NodeJS.ErrnoException).message.includes('socket hang up')) reject(err); });
        req.end();
      });
    },
    request(method, path, opts = {}) {
      // a reused keep-alive connection the server has just closed: try once more, as clients do
      return once(method, path, opts).catch(err => {
        if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') return once(method, path, opts);
        throw err;
      });
    },
  };

  function once(method: string, path: string, opts: Parameters<RawClient['request']>[2] = {}): Promise<RawResponse> {
      return new Promise((resolve, reject) => {
        const req = https.request({
          host: base.hostname, port: base.port, method, path, ca,
          ...(opts.anonymous ? {} : { cert, key }),
          // a length for every body: Node sends DELETE bodies neither chunked nor sized otherwise
          headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers },
        }, res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) });
          });
        });
        req.on('error', reject);
        if (opts.body !== undefined) req.write(opts.body);
        req.end();
      });
  }
}
