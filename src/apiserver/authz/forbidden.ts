// The 403 a denied request gets, worded as kube-apiserver words it (clients and people read it).

import { forbidden, StatusError } from '../../api/status.ts';
import type { Attributes } from './attributes.ts';

/** `User "jane" cannot list resource "pods" in API group "" in the namespace "dev"` */
export function forbiddenMessage(a: Attributes): string {
  const who = `User ${JSON.stringify(a.user.name)}`;
  if (!a.isResourceRequest) return `${who} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const what = `${who} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)}`;
  return a.namespace ? `${what} in the namespace ${JSON.stringify(a.namespace)}` : `${what} at the cluster scope`;
}

export function forbiddenError(a: Attributes, reason: string): StatusError {
  const msg = forbiddenMessage(a) + (reason ? `: ${reason}` : '');
  if (!a.isResourceRequest) {
    const err = new StatusError(403, 'Forbidden', `forbidden: ${msg}`);
    // Kubernetes sends the empty details of a path (`"details":{}`); clients see it
    err.status.details = {};
    return err;
  }
  const err = forbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
  // Kubernetes leaves an empty name out of the details
  if (!a.name && err.status.details) delete err.status.details.name;
  return err;
}
