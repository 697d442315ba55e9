// The AdmissionReview a webhook receives and what of its answer kube-apiserver accepts. The
// request names both what the webhook registered for (kind, resource: an equivalent version
// under matchPolicy Equivalent) and what the client asked (requestKind, requestResource).

import type { KubeObject } from '../../../../api/object.ts';
import type { Status } from '../../../../api/status.ts';
import type { User } from '../../../user.ts';

export interface GVK { group: string; version: string; kind: string }
export interface GVR { group: string; version: string; resource: string }

/** the request as the dispatcher has it, already in the version the webhook asked for */
export interface ReviewInput {
  uid: string;
  kind: GVK;
  resource: GVR;
  subresource: string;
  requestKind: GVK;
  requestResource: GVR;
  operation: string;
  name: string;
  namespace: string;
  user: User;
  object?: KubeObject;
  oldObject?: KubeObject;
  options?: KubeObject;
  dryRun: boolean;
}

export interface AdmissionRequest {
  uid: string;
  kind: GVK;
  resource: GVR;
  subResource?: string;
  requestKind: GVK;
  requestResource: GVR;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: KubeObject | null;
}

/** the AdmissionRequest, with Go's omitempty fields left out when empty */
export function admissionRequest(r: ReviewInput): AdmissionRequest {
  const userInfo: AdmissionRequest['userInfo'] = { username: r.user.name };
  if (r.user.uid) userInfo.uid = r.user.uid;
  if (r.user.groups.length) userInfo.groups = [...r.user.groups];
  if (r.user.extra && Object.keys(r.user.extra).length) userInfo.extra = r.user.extra;
  return {
    uid: r.uid,
    kind: r.kind,
    resource: r.resource,
    ...(r.subresource ? { subResource: r.subresource } : {}),
    requestKind: r.requestKind,
    requestResource: r.requestResource,
    ...(r.subresource ? { requestSubResource: r.subresource } : {}),
    ...(r.name ? { name: r.name } : {}),
    ...(r.namespace ? { namespace: r.namespace } : {}),
    operation: r.operation,
    userInfo,
    object: r.object ?? null,
    oldObject: r.oldObject ?? null,
    dryRun: r.dryRun,
    options: r.options ?? null,
  };
}

/** the first AdmissionReview version both sides know, in the webhook's order of preference */
export function reviewVersion(versions: string[] | undefined): 'v1' | 'v1beta1' | undefined {
  return (versions ?? []).find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1');
}

export function admissionReview(version: 'v1' | 'v1beta1', request: AdmissionRequest): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

export interface VerifiedResponse {
  allowed: boolean;
  /** the JSON patch, decoded from base64 */
  patch?: Buffer;
  patchType?: string;
  result?: Partial<Status>;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

interface RawResponse {
  uid?: unknown; allowed?: unknown; patch?: unknown; patchType?: unknown;
  status?: unknown; warnings?: unknown; auditAnnotations?: unknown;
}

/** an answer's checks, in kube-apiserver's order and words; throws an Error with the reason */
export function verifyResponse(version: 'v1' | 'v1beta1', uid: string, mutating: boolean, body: unknown): VerifiedResponse {
  const review = (body && typeof body === 'object' ? body : {}) as { apiVersion?: unknown; kind?: unknown; response?: RawResponse | null };
  const r = review.response;
  if (!r || typeof r !== 'object') throw new Error('webhook response was absent');
  const patch = typeof r.patch === 'string' && r.patch ? Buffer.from(r.patch, 'base64') : undefined;
  const hasPatchType = r.patchType !== undefined && r.patchType !== null;
  let patchType: string | undefined;
  if (version === 'v1') {
    const got = String(r.uid ?? '');
    if (got !== uid) throw new Error(`expected response.uid="${uid}", got "${got}"`);
    const gv = String(review.apiVersion ?? '');
    const kind = String(review.kind ?? '');
    if (gv !== 'admission.k8s.io/v1' || kind !== 'AdmissionReview') {
      const [g, v] = gv.includes('/') ? gv.split('/', 2) : ['', gv];
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${g}/${v}, Kind=${kind}`);
    }
    if (mutating) {
      if (patch?.length && !hasPatchType) throw new Error('webhook returned response.patch but not response.patchType');
      if (!patch?.length && hasPatchType) throw new Error('webhook returned response.patchType but not response.patch');
      if (hasPatchType) {
        patchType = String(r.patchType);
        if (!patchType) throw new Error('webhook returned invalid response.patchType of ""');
      }
    } else {
      if (patch?.length) throw new Error('validating webhook may not return response.patch');
      if (hasPatchType) throw new Error('validating webhook may not return response.patchType');
    }
  } else if (mutating && patch?.length) {
    // v1beta1 never checked the type: JSONPatch is the only one there is
    patchType = 'JSONPatch';
  }
  return {
    allowed: r.allowed === true,
    patch: mutating ? patch : undefined,
    patchType,
    result: r.status && typeof r.status === 'object' ? r.status as Partial<Status> : undefined,
    warnings: Array.isArray(r.warnings) ? r.warnings.map(String) : [],
    auditAnnotations: r.auditAnnotations && typeof r.auditAnnotations === 'object' ? Object.fromEntries(Object.entries(r.auditAnnotations).map(([k, v]) => [k, String(v)])) : {},
  };
}
