// The refusal of a request denied by a policy, as kube-apiserver words it: admission's
// Forbidden message (`deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'p' with
// binding 'b' denied request: <message>`) carrying the validation's reason (default Invalid)
// and that reason's code, with the message repeated as a cause — which kubectl prints as
// `The deployments "web" is invalid: : ValidatingAdmissionPolicy ...`.

import { StatusError, forbidden, type StatusReason } from '../../../../api/status.ts';
import type { AdmissionAttributes } from '../../types.ts';

const codes: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** the name admission errors show: the request's, the object's, its generateName, or "Unknown" */
export function requestName(a: AdmissionAttributes): string {
  const meta = a.object?.metadata;
  return a.name || meta?.name || meta?.generateName || 'Unknown';
}

export function policyDenial(a: AdmissionAttributes, kind: string, policy: string, binding: string | undefined, message: string, reason: string | undefined): StatusError {
  const why = binding
    ? `${kind} '${policy}' with binding '${binding}' denied request: ${message}`
    : `${kind} '${policy}' denied request: ${message}`;
  const r = reason || 'Invalid';
  const name = requestName(a);
  const { group, resource } = a.resource;
  const qualified = group ? `${resource}.${group}` : resource;
  return new StatusError(codes[r] ?? 422, r as StatusReason, `${qualified} "${name}" is forbidden: ${why}`, {
    name, ...(group ? { group } : {}), kind: resource, causes: [{ message: why }],
  });
}

/** the policies are not read yet: kube-apiserver's answer from a plugin that is not ready */
export function admissionNotReady(a: AdmissionAttributes): StatusError {
  return forbidden({ group: a.resource.group, resource: a.resource.resource }, requestName(a), 'not yet ready to handle request');
}
