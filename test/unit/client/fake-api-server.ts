// A tiny programmable HTTP server standing in for the API server in client and controller
// tests: each test routes requests itself and the server records every call.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Call { method: string; path: string; query: URLSearchParams; body: any }

export type Route = (call: Call, res: http.ServerResponse) => void | Promise<void>;

export interface FakeServer {
  url: string;
  calls: Call[];
  /** the calls whose method and path match */
  callsTo(method: string, path: string | RegExp): Call[];
  close(): Promise<void>;
}

export async function startFakeServer(route: Route): Promise<FakeServer> {
  const calls: Call[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try { body = text ? JSON.parse(text) : undefined; } catch { /* raw text */ }
      const call = { method: req.method!, path: url.pathname, query: url.searchParams, body };
      calls.push(call);
      open.add(res);
      res.on('close', () => open.delete(res));
      Promise.resolve(route(call, res)).catch(err => { if (!res.headersSent) sendJSON(res, 500, { message: String(err) }); });
    });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    callsTo: (method, path) => calls.filter(c => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path))),
    async close() {
      for (const r of open) r.destroy();
      server.closeAllConnections();
      await new Promise<void>(r => server.close(() => r()));
    },
  };
}

export function sendJSON(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function statusBody(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message };
}

/** starts a chunked watch response; write() sends raw text so tests can split lines anywhere */
export function beginWatch(res: http.ServerResponse): { write(text: string): void; event(type: string, object: unknown): void; end(): void; cut(): void } {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  return {
    write: text => { res.write(text); },
    event: (type, object) => { res.write(JSON.stringify({ type, object }) + '\n'); },
    end: () => res.end(),
    // the connection drops mid-stream, without the chunked terminator
    cut: () => res.socket?.destroy(),
  };
}

export function until(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (cond()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });
}
