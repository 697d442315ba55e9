// The unsafe delete: DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential removes an
// object whose stored bytes no longer decode, skipping finalizers, preconditions and admission.
// Behind the AllowUnsafeMalformedObjectDeletion gate (alpha, off): with the gate off the option
// is dropped and the delete runs as any other. With it on, the option stands alone in its
// DeleteOptions, and the requester also needs the `unsafe-delete-ignore-read-errors` verb on the
// resource, on top of the `delete` the request itself was authorized for.

import { forbidden, type FieldError } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import type { DeleteOptions } from '../../registry/registry.ts';
import { sendObject } from '../respond.ts';

export const unsafeDeleteGate = 'AllowUnsafeMalformedObjectDeletion';
export const unsafeDeleteVerb = 'unsafe-delete-ignore-read-errors';
export const unsafeDeleteOption = 'ignoreStoreReadErrorWithClusterBreakingPotential';

/** the other options the unsafe delete refuses to be combined with, in Kubernetes' order */
export function unsafeDeleteConflicts(opts: DeleteOptions): FieldError[] {
  const set: [string, boolean][] = [
    ['dryRun', !!opts.dryRun],
    ['propagationPolicy', opts.propagationPolicy !== undefined],
    ['orphanDependents', opts.orphanDependents !== undefined],
    ['gracePeriodSeconds', opts.gracePeriodSeconds !== undefined],
    ['preconditions', opts.preconditions !== undefined],
  ];
  return set.filter(([, on]) => on).map(([field]) => ({ type: 'FieldValueInvalid', field: unsafeDeleteOption, value: true, detail: `cannot be set together with .${field}` }));
}

/** the second authorization the option needs: the verb on the same resource and object */
export function authorizeUnsafeDelete(ctx: RequestContext): void {
  const info = ctx.info;
  if (!ctx.resource || info.subresource) {
    throw forbidden({ group: info.group, resource: info.resource }, info.name ?? '', `${unsafeDeleteOption} delete option is not allowed on a subresource or non-resource request`);
  }
  if (!ctx.authorizer || !ctx.user) return; // no authorization configured: everything is allowed
  const verdict = ctx.authorizer.authorize({
    user: ctx.user, verb: unsafeDeleteVerb, isResourceRequest: true, path: info.path,
    apiGroup: info.group, apiVersion: info.version, resource: info.resource, subresource: '',
    namespace: info.namespace ?? '', name: info.name ?? '',
  });
  if (verdict.decision !== 'allow') {
    throw forbidden({ group: info.group, resource: info.resource }, info.name ?? '', `not permitted to do ${JSON.stringify(unsafeDeleteVerb)}, reason: ${verdict.reason}`);
  }
}

/** authorize, then remove the corrupt object; a readable one is refused by the registry (422) */
export async function handleUnsafeDelete(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  authorizeUnsafeDelete(ctx);
  const info = ctx.resource!;
  const name = ctx.info.name!;
  await deps.registry.deleteCorrupt(info, ctx.info.namespace, name);
  // nothing of the object could be read: the answer names only what the request named
  const details: Record<string, string> = { name, kind: info.resource };
  if (info.group) details.group = info.group;
  sendObject(ctx, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details } as never);
}
