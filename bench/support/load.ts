// A small HTTP/2 load generator: N concurrent streams over one TLS session, fixed request count.

import http2 from 'node:http2';

export interface TlsClient { ca: Buffer; cert?: Buffer; key?: Buffer }

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
}

// The flow-control windows Go's HTTP/2 client (kubectl, client-go) opens: 4 MiB per stream,
// 1 GiB per connection. Node's default of 64 KiB for both would make every large list and busy
// watch connection wait on window updates, measuring the client rather than the server.
const streamWindow = 4 << 20;
const connectionWindow = 1 << 30;

/** an HTTP/2 session as the clients of a Kubernetes API open one */
export function connect(url: string, tls: TlsClient): http2.ClientHttp2Session {
  const session = http2.connect(url, { ca: tls.ca, cert: tls.cert, key: tls.key, settings: { initialWindowSize: streamWindow } });
  session.once('connect', () => session.setLocalWindowSize(connectionWindow));
  return session;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(url: string, tls: TlsClient, opts: {
  total: number;
  concurrency: number;
  request: (i: number) => { method: string; path: string; body?: string; accept?: string };
  expect?: number;
  /** run for this long instead (total then only caps the count): loads side by side share a window */
  durationMs?: number;
}): Promise<LoadResult> {
  const session = connect(url, tls);
  await new Promise<void>((res, rej) => { session.once('connect', () => res()); session.once('error', rej); });
  const latencies: number[] = [];
  let next = 0, errors = 0;
  const one = (i: number) => new Promise<void>(resolve => {
    const r = opts.request(i);
    const t0 = performance.now();
    const headers: http2.OutgoingHttpHeaders = { ':method': r.method, ':path': r.path };
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    if (r.accept !== undefined) headers.accept = r.accept;
    const stream = session.request(headers);
    let status = 0;
    stream.on('response', h => { status = Number(h[':status']); });
    stream.on('data', () => {});
    stream.on('end', () => {
      latencies.push(performance.now() - t0);
      if (opts.expect !== undefined && status !== opts.expect) errors++;
      resolve();
    });
    stream.on('error', () => { errors++; resolve(); });
    if (r.body !== undefined) stream.end(r.body); else stream.end();
  });
  const started = performance.now();
  const until = opts.durationMs === undefined ? Infinity : started + opts.durationMs;
  let done = 0;
  const workers = Array.from({ length: opts.concurrency }, async () => {
    while (next < opts.total && performance.now() < until) { await one(next++); done++; }
  });
  await Promise.all(workers);
  const seconds = (performance.now() - started) / 1000;
  session.close();
  latencies.sort((a, b) => a - b);
  return { requests: done, errors, seconds, perSecond: done / seconds, p50ms: percentile(latencies, 50), p99ms: percentile(latencies, 99) };
}
