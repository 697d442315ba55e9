// One webhook called for one request: the dry-run check against sideEffects, the review sent in
// the version the webhook registered for, the answer checked, its warnings and audit
// annotations passed on, and a refusal or a patched object handed back. A failed call is a
// CallingWebhookError for failurePolicy to judge; a refusal is the StatusError the client sees.

import { randomUUID } from 'node:crypto';
import { apiVersionOf, type KubeObject } from '../../../../api/object.ts';
import { convertObject } from '../../../../registry/conversion/index.ts';
import type { AdmissionAttributes } from '../../types.ts';
import { ClientConfigError, decodeAnswer, postReview } from './client.ts';
import { CallingWebhookError, dryRunUnsupported, rejection } from './errors.ts';
import type { Invocation } from './invocation.ts';
import { kindOf } from './invocation.ts';
import { admissionRequest, admissionReview, reviewVersion, verifyResponse, type AdmissionRequest, type VerifiedResponse } from './review.ts';
import type { ServiceResolver } from './service-resolver.ts';

export interface CallDeps {
  resolveService: ServiceResolver;
  uid?: () => string;
}

/** the request's objects in the version the invocation names */
export function versioned(obj: KubeObject | undefined, inv: Invocation): KubeObject | undefined {
  if (!obj || !obj.apiVersion) return obj;
  return convertObject(obj, apiVersionOf(inv.kind.group, inv.kind.version));
}

/** the AdmissionRequest this invocation sends (also what matchConditions see as `request`) */
export function requestFor(a: AdmissionAttributes, inv: Invocation, uid: string): AdmissionRequest {
  const req = kindOf(a.resource, a.subresource);
  return admissionRequest({
    uid, kind: inv.kind, resource: inv.resource, subresource: a.subresource,
    requestKind: req,
    requestResource: { group: a.resource.group, version: a.resource.version, resource: a.resource.resource },
    operation: a.operation, name: a.name, namespace: a.namespace, user: a.user,
    object: versioned(a.object, inv), oldObject: versioned(a.oldObject, inv), options: a.options, dryRun: a.dryRun,
  });
}

/** calls the webhook; resolves with its verified answer when it allowed the request */
export async function callHook(a: AdmissionAttributes, inv: Invocation, mutating: boolean, deps: CallDeps): Promise<VerifiedResponse> {
  const spec = inv.hook.spec;
  if (a.dryRun && spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') {
    if (!spec.sideEffects) throw new CallingWebhookError(spec.name, 'Webhook SideEffects is nil');
    throw dryRunUnsupported(spec.name);
  }
  const version = reviewVersion(spec.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(spec.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const uid = (deps.uid ?? randomUUID)();
  const body = JSON.stringify(admissionReview(version, requestFor(a, inv, uid)));
  let answer: unknown;
  try {
    answer = decodeAnswer(await postReview(spec.clientConfig, spec.timeoutSeconds ?? 10, body, deps.resolveService));
  } catch (err) {
    if (err instanceof ClientConfigError) throw new CallingWebhookError(spec.name, `could not get REST client: ${err.message}`);
    throw new CallingWebhookError(spec.name, `failed to call webhook: ${(err as Error).message}`);
  }
  let result: VerifiedResponse;
  try {
    result = verifyResponse(version, uid, mutating, answer);
  } catch (err) {
    throw new CallingWebhookError(spec.name, `received invalid webhook response: ${(err as Error).message}`);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) a.annotate(`${spec.name}/${k}`, v);
  for (const w of result.warnings) a.warn(w);
  if (!result.allowed) throw rejection(spec.name, result.result);
  return result;
}
