// A CRD conversion webhook served by the test over HTTPS with a CA of the test's own making
// (`caBundle` for the CRD's clientConfig). Every ConversionReview is recorded; by default each
// object is converted by `convert` and the answer is a v1 review for the request's uid, which a
// test can replace per path (a bad answer, a raw reply, or none).

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueCert } from '../../src/pki/certs.ts';

export interface ConversionRequest { uid: string; desiredAPIVersion: string; objects: Array<Record<string, any>> }
export interface ConversionReviewIn { apiVersion: string; kind: string; request: ConversionRequest }
export type ConversionAnswer = Record<string, unknown> | { status: number; body: string } | 'hang';

export interface ConversionWebhook {
  url(path: string): string;
  caBundle: string;
  received: Array<{ path: string; review: ConversionReviewIn }>;
  on(path: string, answer: (review: ConversionReviewIn) => ConversionAnswer): void;
  close(): Promise<void>;
}

/** the usual answer: every object converted, in a review of the version asked in */
export function converted(review: ConversionReviewIn, convert: (obj: Record<string, any>, to: string) => Record<string, any>): Record<string, unknown> {
  const req = review.request;
  return {
    apiVersion: review.apiVersion, kind: 'ConversionReview',
    response: { uid: req.uid, convertedObjects: req.objects.map(o => convert(o, req.desiredAPIVersion)), result: { status: 'Success' } },
  };
}

/**
 * The example the tests share: v1 keeps `spec.hostPort` ("host:port"), v2 splits it into
 * `spec.host` and `spec.port`; anything else in the object is carried over.
 */
export function hostPortConversion(obj: Record<string, any>, to: string): Record<string, any> {
  const out = structuredClone(obj);
  out.apiVersion = to;
  const spec = out.spec ?? {};
  if (to.endsWith('/v2') && typeof spec.hostPort === 'string') {
    const [host, port] = spec.hostPort.split(':');
    delete spec.hostPort;
    spec.host = host;
    spec.port = Number(port);
  } else if (to.endsWith('/v1') && typeof spec.host === 'string') {
    spec.hostPort = `${spec.host}:${spec.port}`;
    delete spec.host;
    delete spec.port;
  }
  return out;
}

export async function startConversionWebhook(convert = hostPortConversion): Promise<ConversionWebhook> {
  const authority = await createCa('conversion-webhook-ca', 1);
  const serving = await issueCert(authority, { commonName: 'conversion-webhook', days: 1, usage: 'server', dnsNames: ['localhost', 'converter.default.svc'], ips: ['127.0.0.1'] });
  const handlers = new Map<string, (r: ConversionReviewIn) => ConversionAnswer>();
  const received: ConversionWebhook['received'] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ConversionReviewIn;
      received.push({ path, review });
      const answer = (handlers.get(path) ?? (r => converted(r, convert)))(review);
      if (answer === 'hang') { hanging.add(res); return; }
      if (typeof answer.status === 'number' && typeof answer.body === 'string') {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: path => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(authority.cert).toString('base64'),
    received,
    on(path, answer) { handlers.set(path, answer); },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
