// The `request` variable of admission CEL: the AdmissionRequest a webhook would be sent
// (kind, resource, subResource, requestKind/Resource, name, namespace, operation, userInfo,
// dryRun, options), built from the admission attributes.

import type { AdmissionAttributes } from '../../types.ts';

export function admissionRequest(a: AdmissionAttributes): Record<string, unknown> {
  const info = a.resource;
  const kind = { group: info.group, version: info.version, kind: a.subresource ? subresourceKind(a) : info.kind };
  const resource = { group: info.group, version: info.version, resource: info.resource };
  const userInfo: Record<string, unknown> = { username: a.user.name, groups: a.user.groups };
  if (a.user.uid) userInfo.uid = a.user.uid;
  if (a.user.extra) userInfo.extra = a.user.extra;
  const out: Record<string, unknown> = {
    kind, resource, requestKind: kind, requestResource: resource,
    name: a.name, namespace: a.namespace, operation: a.operation, userInfo, dryRun: a.dryRun,
  };
  if (a.subresource) { out.subResource = a.subresource; out.requestSubResource = a.subresource; }
  if (a.options) out.options = a.options;
  return out;
}

function subresourceKind(a: AdmissionAttributes): string {
  return a.resource.subresources.find(s => s.name === a.subresource)?.kind ?? a.resource.kind;
}
