// Failures of a strategic merge patch, with the status they are answered with. Malformed
// directive lists are 400 BadRequest and two shape problems are 422. Kubernetes passes the other
// failures (an unknown $patch value, a list item without its merge key) through unconverted, as a
// 500 with no reason; here they are what they are, a bad patch: 400 BadRequest. Clients print the
// message verbatim ("Error from server: map: map[image:x] does not contain declared merge key:
// name"), so the wording follows Kubernetes'.

import { StatusError, type StatusReason } from '../../api/status.ts';
import { patchNotApplicable } from '../errors.ts';
import { goFormat } from './go-format.ts';

export class StrategicMergePatchError extends Error {
  /** the HTTP status Kubernetes uses for this failure */
  code: number;
  reason: StatusReason;
  constructor(message: string, code = 400, reason: StatusReason = 'BadRequest') {
    super(message);
    this.name = 'StrategicMergePatchError';
    this.code = code;
    this.reason = reason;
  }

  /** the Status a client sees */
  toStatusError(): StatusError {
    if (this.code === 422) return patchNotApplicable(this.message);
    return new StatusError(this.code, this.reason, this.message);
  }
}

const badRequest = (message: string): StrategicMergePatchError => new StrategicMergePatchError(message, 400, 'BadRequest');

export const badPatchFormatForPrimitiveList = (): StrategicMergePatchError => badRequest('invalid patch format of primitive list');
export const badPatchFormatForRetainKeys = (): StrategicMergePatchError => badRequest('invalid patch format of retainKeys');
export const badPatchFormatForSetElementOrderList = (): StrategicMergePatchError => badRequest('invalid patch format of setElementOrder list');

/** the patch body is JSON but not an object */
export function patchNotAnObject(patch: unknown): StrategicMergePatchError {
  const seen = Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch === 'boolean' ? 'bool' : typeof patch;
  return badRequest(`json: cannot unmarshal ${seen} into Go value of type map[string]interface {}`);
}

export function unknownDirective(key: string): StrategicMergePatchError {
  return badRequest(`unknown strategic merge patch directive ${JSON.stringify(key)}`);
}

export function noListOfLists(): StrategicMergePatchError {
  return new StrategicMergePatchError('lists of lists are not supported', 422, 'Invalid');
}

export function noMergeKey(item: unknown, mergeKey: string): StrategicMergePatchError {
  return new StrategicMergePatchError(`map: ${goFormat(item)} does not contain declared merge key: ${mergeKey}`);
}

export function badPatchType(directive: unknown, item: unknown): StrategicMergePatchError {
  return new StrategicMergePatchError(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(item)}`);
}

export function mergeDirectiveInList(): StrategicMergePatchError {
  return new StrategicMergePatchError('merging lists cannot yet be specified in the patch');
}

export function elementTypesDiffer(lists: unknown[][]): StrategicMergePatchError {
  return new StrategicMergePatchError(`list element types are not identical: ${goFormat(lists)}`);
}

export function orderMismatch(patchList: unknown[], orderList: unknown[]): StrategicMergePatchError {
  return new StrategicMergePatchError(
    `The order in patch list:\n${goFormat(patchList)}\n doesn't match $setElementOrder list:\n${goFormat(orderList)}\n`);
}
