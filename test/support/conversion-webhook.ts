// A CRD conversion webhook served by the test over HTTPS with a CA of the test's own making
// (`caBundle` for the CRD's clientConfig; the certificate also names converter.default.svc):
// the admission test webhook's server, answering whole ConversionReviews. Every review is
// recorded; by default each object is converted by `convert` and the answer is a review of the
// request's version for its uid, which a test can replace per path (a bad answer, a raw reply, or none).

import { startWebhookServer, type Answer, type WebhookServer } from './webhook-server.ts';

export interface ConversionRequest { uid: string; desiredAPIVersion: string; objects: Array<Record<string, any>> }
export interface ConversionReviewIn { apiVersion: string; kind: string; request: ConversionRequest }

export interface ConversionWebhook extends Omit<WebhookServer, 'received' | 'on'> {
  received: Array<{ path: string; review: ConversionReviewIn }>;
  on(path: string, answer: (review: ConversionReviewIn) => Answer): void;
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
  const server = await startWebhookServer(undefined, { dnsNames: ['converter.default.svc'], whole: r => converted(r as unknown as ConversionReviewIn, convert) });
  return server as unknown as ConversionWebhook;
}
