// An admission or conversion webhook served by the test over HTTPS, with a CA of the test's own
// making: each AdmissionReview (or ConversionReview) received is recorded and answered by the
// test's function (or delayed, for timeouts), as the `response` of a review of the kind received.
// `caBundle` is what a clientConfig names to trust it. A default answer (`whole`) is sent as the
// whole body.

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueCert, type CertAndKey } from '../../src/pki/certs.ts';

export interface Review { apiVersion: string; kind: string; request: Record<string, any> }
export type Answer = Record<string, unknown> | { status: number; body: string } | 'hang';

export interface WebhookServer {
  url(path: string): string;
  port: number;
  caBundle: string;
  /** a CA that did not sign the server's certificate */
  otherCaBundle: string;
  received: Array<{ path: string; review: Review }>;
  /** sets how each path answers: the `response` of an AdmissionReview, a raw reply, or none */
  on(path: string, answer: (review: Review) => Answer): void;
  close(): Promise<void>;
}

/** `{ uid, allowed: true, ...extra }` as the response of `review` */
export function respond(review: Review, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { uid: review.request.uid, allowed: true, ...extra };
}

export function jsonPatch(ops: unknown[]): { patch: string; patchType: 'JSONPatch' } {
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' };
}

export interface WebhookServerOptions {
  /** names the serving certificate holds besides localhost and 127.0.0.1 */
  dnsNames?: string[];
  /** the answer of a path without one of its own, sent as the whole body (default: an allowing AdmissionReview) */
  whole?: (review: Review) => Answer;
}

export async function startWebhookServer(ca?: CertAndKey, opts: WebhookServerOptions = {}): Promise<WebhookServer> {
  const authority = ca ?? await createCa('webhook-test-ca', 1);
  const other = await createCa('other-ca', 1);
  const serving = await issueCert(authority, { commonName: 'webhook', days: 1, usage: 'server', dnsNames: ['localhost', ...(opts.dnsNames ?? ['webhook.test.svc'])], ips: ['127.0.0.1'] });
  const handlers = new Map<string, (r: Review) => Answer>();
  const received: WebhookServer['received'] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      received.push({ path, review });
      const answer = (handlers.get(path) ?? opts.whole ?? (r => respond(r)))(review);
      if (answer === 'hang') { hanging.add(res); return; }
      if ('status' in answer && typeof answer.status === 'number' && typeof answer.body === 'string') {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body);
        return;
      }
      const body = JSON.stringify(opts.whole ? answer : { apiVersion: review.apiVersion, kind: review.kind, response: answer });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: path => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(authority.cert).toString('base64'),
    otherCaBundle: Buffer.from(other.cert).toString('base64'),
    received,
    on(path, answer) { handlers.set(path, answer); },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
