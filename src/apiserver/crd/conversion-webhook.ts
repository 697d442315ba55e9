// How the API server calls a CRD's conversion webhook: the ConversionReview POSTed with the
// admission webhooks' client (caBundle, Go's error wording, a `service` reached at a ready
// endpoint of its EndpointSlices) and kube-apiserver's fixed 30 s timeout for webhook calls.

import { Agent } from 'node:https';
import type { ReviewCaller } from '../../registry/apiextensions/conversion/converter.ts';
import { decodeAnswer, postReview } from '../admission/plugins/webhooks/client.ts';
import type { ServiceResolver } from '../admission/plugins/webhooks/service-resolver.ts';

/** kube-apiserver's timeout for every webhook request without one of its own */
const timeoutSeconds = 30;

export function conversionReviewCaller(resolveService: ServiceResolver): ReviewCaller {
  // every read and write of a converting resource may call: connections are kept, per
  // endpoint and trust, as Go's transport keeps them (idle ones do not hold the process)
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 4 });
  return clientConfig => {
    // a caBundle of only whitespace counts as none, as kube-apiserver reads it
    const caBundle = clientConfig.caBundle && Buffer.from(clientConfig.caBundle, 'base64').toString('latin1').trim() ? clientConfig.caBundle : undefined;
    const cfg = { ...clientConfig, ...(caBundle ? { caBundle } : { caBundle: undefined }) };
    return async review => decodeAnswer(await postReview(cfg, timeoutSeconds, JSON.stringify(review), resolveService, agent));
  };
}
