// RBAC escalation prevention on role and binding writes: nobody grants what they do not hold.
// A role's rules must be covered by the writer's own rules unless they may `escalate` roles; a
// binding's role must be covered unless they may `bind` it. system:masters may do either.

import { forbidden } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { User } from '../context.ts';
import type { Authorizer } from './attributes.ts';
import { privilegedGroup } from './chain.ts';
import { compactMissing, describeMissing } from './escalation-message.ts';
import type { RbacIndex, RoleRef } from './rbac-index.ts';
import { rbacGroup } from './rbac.ts';
import type { PolicyRule } from './rules.ts';

const fullAuthority: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

const roleResources = new Set(['roles', 'clusterroles']);
const bindingResources = new Set(['rolebindings', 'clusterrolebindings']);

/** the admission check for a write of `resource` in `namespace`, or undefined when none applies */
export function rbacWriteCheck(user: User, group: string, resource: string, namespace: string, authz: Authorizer, index: RbacIndex): ((obj: KubeObject, old?: KubeObject) => void) | undefined {
  if (group !== rbacGroup || (!roleResources.has(resource) && !bindingResources.has(resource))) return undefined;
  if (user.groups.includes(privilegedGroup)) return undefined;
  const gr = { group: rbacGroup, resource };
  const confirm = (name: string, rules: PolicyRule[]): void => {
    const held = index.rulesFor(user, namespace);
    const missing = compactMissing(held.rules, rules);
    if (missing.length) throw forbidden(gr, name, describeMissing(user, missing, held.errors));
  };
  const allowed = (verb: string, r: string, name: string) => authz.authorize({ user, verb, isResourceRequest: true, path: '', apiGroup: rbacGroup, resource: r, subresource: '', namespace, name }).decision === 'allow';

  if (roleResources.has(resource)) {
    return (obj, old) => {
      const name = obj.metadata.name ?? '';
      if (allowed('escalate', resource, name)) return;
      const rules = (obj.rules as PolicyRule[] | undefined) ?? [];
      // an update that leaves the rules as they were grants nothing new
      if (!(old && JSON.stringify(old.rules ?? []) === JSON.stringify(rules))) confirm(name, rules);
      if (obj.aggregationRule && !(old && JSON.stringify(old.aggregationRule) === JSON.stringify(obj.aggregationRule))) {
        const held = index.rulesFor(user, namespace);
        if (compactMissing(held.rules, fullAuthority).length) throw forbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    };
  }
  return obj => {
    const name = obj.metadata.name ?? '';
    const ref = obj.roleRef as RoleRef | undefined;
    if (!ref) return; // validation reports it
    if (allowed('bind', ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles', ref.name)) return;
    const rules = index.refRules(ref, namespace);
    if (typeof rules === 'string') throw forbidden(gr, name, rules);
    confirm(name, rules);
  };
}
