// A mutating webhook's JSONPatch applied to the object it was sent (in the webhook's version),
// and the result turned back into the version of the request, as kube-apiserver applies it.

import { deepClone, jsonEqual, type KubeObject } from '../../../../api/object.ts';
import { internalError } from '../../../../api/status.ts';
import { applyJsonPatch } from '../../../../patch/json-patch.ts';
import { convertObject } from '../../../../registry/conversion/index.ts';
import { CallingWebhookError, cannotModify } from './errors.ts';
import type { VerifiedResponse } from './review.ts';

export interface PatchOutcome { object: KubeObject; changed: boolean }

/**
 * `sent`: the object as the webhook received it; `requestApiVersion`: what the client wrote.
 * Undefined when the answer changes nothing.
 */
export function applyWebhookPatch(webhook: string, result: VerifiedResponse, sent: KubeObject | undefined, requestApiVersion: string | undefined): PatchOutcome | undefined {
  if (!result.patch?.length) return undefined;
  let ops: unknown;
  try {
    ops = JSON.parse(result.patch.toString('utf8'));
    if (!Array.isArray(ops)) throw new Error(`json: cannot unmarshal ${ops === null ? 'null' : typeof ops} into Go value of type jsonpatch.Patch`);
  } catch (err) {
    throw new CallingWebhookError(webhook, `received undecodable patch in webhook response: ${(err as Error).message}`);
  }
  if ((ops as unknown[]).length === 0) return undefined;
  if (!sent) throw cannotModify(webhook);
  if (result.patchType !== 'JSONPatch') throw new CallingWebhookError(webhook, `unsupported patch type "${result.patchType}"`);
  let patched: KubeObject;
  try {
    patched = applyJsonPatch(deepClone(sent), ops) as KubeObject;
  } catch (err) {
    throw internalError(err);
  }
  if (!patched || typeof patched !== 'object' || Array.isArray(patched)) throw internalError(new Error('the patched object is not a JSON object'));
  patched.metadata ??= {};
  const back = requestApiVersion ? convertObject(patched, requestApiVersion) : patched;
  return { object: back, changed: !jsonEqual(patched, sent) };
}

