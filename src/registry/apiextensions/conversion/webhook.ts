// Conversion through a CRD's webhook, as kube-apiserver's webhook converter does it: the objects
// not yet in the desired version go in one ConversionReview (a list page's items together, a
// single object alone), the answer is checked (review.ts) and each converted object must be of
// the desired group/version, the same kind and the same object (converted.ts) before it is taken
// with the original metadata. Every failure is a message naming the GroupVersionKind converted.

import { isObject, type KubeObject } from '../../../api/object.ts';
import { withOriginalMetadata, identityError } from './converted.ts';
import { conversionReview, conversionReviewVersion, convertedObjectsOf } from './review.ts';

/**
 * POSTs a review to the CRD's webhook and resolves with the decoded answer; rejects with the
 * reason as client-go words it (`Post "https://…": …`). The API server gives it.
 */
export type ReviewCall = (review: Record<string, unknown>) => Promise<unknown>;

export interface WebhookConverterConfig {
  conversionReviewVersions: string[];
  call: ReviewCall;
  uid: () => string;
}

/** Go's GroupVersionKind.String() of an object */
export function gvkOf(obj: { apiVersion?: unknown; kind?: unknown }): string {
  const gv = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = gv.indexOf('/');
  const [g, v] = slash < 0 ? ['', gv] : [gv.slice(0, slash), gv.slice(slash + 1)];
  return `${g}/${v}, Kind=${typeof obj.kind === 'string' ? obj.kind : ''}`;
}

/** an apiVersion as Go's GroupVersion.String() prints the parsed one */
const gvText = (apiVersion: unknown): string => (typeof apiVersion === 'string' ? apiVersion : '');

/** a RawExtension decoded into an unstructured object, with the decoder's complaints */
function decodeRaw(raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) throw new Error(`json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw === 'string' ? 'string' : typeof raw === 'number' ? 'number' : raw === null ? 'null' : typeof raw} into Go value of type map[string]interface {}`);
  if (typeof raw.kind !== 'string' || !raw.kind) throw new Error(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  return raw;
}

/**
 * `objs` in `apiVersion`: those already there as they are, the others converted by the webhook
 * in one review. `list` words the errors as for a list's items (index by index).
 */
export async function convertByWebhook(cfg: WebhookConverterConfig, objs: KubeObject[], apiVersion: string, list: boolean): Promise<KubeObject[]> {
  const version = conversionReviewVersion(cfg.conversionReviewVersions);
  if (!version) throw new Error('no supported conversion review versions');
  const sent = objs.filter(o => o.apiVersion !== apiVersion);
  if (!sent.length) return objs;
  const what = gvkOf(sent[0]!);
  const uid = cfg.uid();
  let converted: unknown[];
  try {
    converted = convertedObjectsOf(version, uid, await cfg.call(conversionReview(version, uid, apiVersion, sent)));
  } catch (err) {
    throw new Error(`conversion webhook for ${what} failed: ${(err as Error).message}`);
  }
  if (converted.length !== sent.length) throw new Error(`conversion webhook for ${what} returned ${converted.length} objects, expected ${sent.length}`);
  const out = new Map<KubeObject, KubeObject>();
  sent.forEach((original, i) => {
    const invalid = list ? `conversion webhook for ${what} returned invalid converted object at index ${i}` : `conversion webhook for ${what} returned invalid object at index 0`;
    let got: Record<string, unknown>;
    try {
      got = decodeRaw(converted[i]);
    } catch (err) {
      // a single object's decode error goes out unwrapped, as kube-apiserver returns it
      throw list ? new Error(`${invalid}: ${(err as Error).message}`) : err;
    }
    if (got.apiVersion !== apiVersion) throw new Error(`${invalid}: invalid groupVersion (expected ${apiVersion}, received ${gvText(got.apiVersion)})`);
    if (got.kind !== original.kind) throw new Error(`${invalid}: invalid kind (expected ${original.kind}, received ${String(got.kind)})`);
    const mismatch = identityError(original, got);
    if (mismatch) throw new Error(list ? `${invalid}: ${mismatch}` : `conversion webhook for ${what} returned invalid object: ${mismatch}`);
    try {
      out.set(original, withOriginalMetadata(original, got));
    } catch (err) {
      const where = list ? `invalid metadata in object at index ${i}` : 'invalid metadata';
      throw new Error(`conversion webhook for ${what} returned ${where}: ${(err as Error).message}`);
    }
  });
  return objs.map(o => out.get(o) ?? o);
}
