// The `authorizer` variable of admission CEL (policies and webhook matchConditions): checks go
// to the server's authorizer chain as the requester, or as the service account that
// `authorizer.serviceAccount(ns, name)` names, with the groups a token of that account gets.

import type { CelAuthorizer } from '../../../schema/cel/authorizer.ts';
import type { Authorizer } from '../../authz/attributes.ts';
import type { User } from '../../user.ts';

function serviceAccountUser(namespace: string, name: string): User {
  return { name: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'] };
}

/** undefined without an authorizer (every request allowed): CEL then has no `authorizer` */
export function celAuthorizer(authz: Authorizer | undefined, requester: User): CelAuthorizer | undefined {
  if (!authz) return undefined;
  return {
    check: c => authz.authorize({
      user: c.serviceAccount ? serviceAccountUser(c.serviceAccount.namespace, c.serviceAccount.name) : requester,
      verb: c.verb, isResourceRequest: c.isResourceRequest, path: c.path, apiGroup: c.apiGroup,
      resource: c.resource, subresource: c.subresource, namespace: c.namespace, name: c.name,
    }),
  };
}
