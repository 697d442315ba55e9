// --shutdown-send-retry-after: once the shutdown delay is over, the server keeps its listener
// open until the requests in flight are done, and answers every new request 429 with Retry-After
// (and, over HTTP/1.1, Connection: close), so clients go to another server instead of finding a
// refused connection. Health checks and /metrics are still served, as kube-apiserver serves them.

import type { IncomingHttpHeaders } from 'node:http';

const exemptPrefixes = ['/readyz', '/livez', '/healthz', '/metrics'];

/** kube-apiserver's own loopback requests and health or metrics scrapes are never turned away */
export function exemptFromRetryAfter(path: string, headers: IncomingHttpHeaders): boolean {
  return String(headers['user-agent'] ?? '').startsWith('kube-apiserver/') || exemptPrefixes.some(p => path.startsWith(p));
}

export const shuttingDownMessage = 'The apiserver is shutting down, please try again later.';

interface Answerable {
  httpVersionMajor?: number;
}
interface Writable {
  writeHead(code: number, headers: Record<string, string>): unknown;
  end(body: string): unknown;
}

/** the answer kube-apiserver gives (Go's http.Error: plain text, not a Status) */
export function answerRetryAfter(req: Answerable, res: Writable): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'retry-after': '5' };
  // HTTP/2 has no Connection header: the session gets GOAWAY instead
  if ((req.httpVersionMajor ?? 2) < 2) headers.connection = 'close';
  res.writeHead(429, headers);
  res.end(`${shuttingDownMessage}\n`);
}
