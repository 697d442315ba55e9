// The ConversionReview a conversion webhook receives and what of its answer kube-apiserver
// accepts: the review is sent in the first version of the CRD's conversionReviewVersions the
// server knows (v1, v1beta1); a v1 answer must be a v1 ConversionReview for our uid, a v1beta1
// one is taken as it comes (Kubernetes never checked those); either must report Success.

import type { KubeObject } from '../../../api/object.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

/** the first version both sides know, in the CRD's order of preference */
export function conversionReviewVersion(versions: readonly string[] | undefined): ReviewVersion | undefined {
  return (versions ?? []).find((v): v is ReviewVersion => v === 'v1' || v === 'v1beta1');
}

export function conversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: KubeObject[]): Record<string, unknown> {
  return {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion, objects },
    // kube-apiserver sends an empty response beside the request, as its Go struct holds one
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

interface RawResponse { uid?: unknown; convertedObjects?: unknown; result?: { status?: unknown; message?: unknown } | null }

/** the GroupVersionKind of a decoded review as Go's GroupVersionKind.String() prints it */
function gvkText(apiVersion: unknown, kind: unknown): string {
  const gv = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = gv.indexOf('/');
  const [g, v] = slash < 0 ? ['', gv] : [gv.slice(0, slash), gv.slice(slash + 1)];
  return `${g}/${v}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * The converted objects of an answer, in kube-apiserver's order of checks and its words
 * (the caller puts them after `conversion webhook for <gvk> failed: `); throws on a bad answer.
 */
export function convertedObjectsOf(version: ReviewVersion, uid: string, body: unknown): unknown[] {
  const review = (body && typeof body === 'object' ? body : {}) as { apiVersion?: unknown; kind?: unknown; response?: RawResponse | null };
  if (version === 'v1' && (review.apiVersion !== 'apiextensions.k8s.io/v1' || review.kind !== 'ConversionReview')) {
    throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gvkText(review.apiVersion, review.kind)}`);
  }
  const r = review.response;
  if (!r || typeof r !== 'object') throw new Error('no response provided');
  if (version === 'v1') {
    const got = typeof r.uid === 'string' ? r.uid : '';
    if (got !== uid) throw new Error(`expected response.uid="${uid}", got "${got}"`);
  }
  const status = typeof r.result?.status === 'string' ? r.result.status : '';
  if (status !== 'Success') {
    const message = typeof r.result?.message === 'string' ? r.result.message : '';
    throw new Error(message || `response.result.status was '${status}', not 'Success'`);
  }
  return Array.isArray(r.convertedObjects) ? r.convertedObjects : [];
}
