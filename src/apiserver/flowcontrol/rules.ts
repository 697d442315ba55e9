// Whether a request matches a FlowSchema, by Kubernetes' rules: some rule whose subjects name
// the user, then a resource rule (verb, group, resource[/subresource], namespace or cluster
// scope) for resource requests or a non-resource rule (verb, path) for the others. `*` alone in a
// list matches everything; a non-resource path matches itself and, as a prefix, what lies below it.

import type {
  FlowcontrolV1FlowSchemaSpec as FlowSchemaSpec,
  FlowcontrolV1NonResourcePolicyRule as NonResourceRule,
  FlowcontrolV1PolicyRulesWithSubjects as PolicyRules,
  FlowcontrolV1ResourcePolicyRule as ResourceRule,
  FlowcontrolV1Subject as Subject,
} from '../../schema/generated/types.ts';
import type { User } from '../user.ts';

/** what of a request the rules read */
export interface RequestDigest {
  isResourceRequest: boolean;
  verb: string;
  /** non-resource requests */
  path: string;
  group: string;
  resource: string;
  subresource?: string;
  /** '' or absent: no namespace (a cluster-scoped resource, or all namespaces) */
  namespace?: string;
}

const serviceAccountPrefix = 'system:serviceaccount:';

/** the list holds only the wildcard, or holds the value (validation keeps `*` alone) */
function listMatches(list: readonly string[] | undefined, value: string, wildcard = '*'): boolean {
  if (!list) return false;
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(value);
}

export function subjectMatches(subject: Subject, user: User): boolean {
  switch (subject.kind) {
    case 'User':
      return !!subject.user && (subject.user.name === '*' || subject.user.name === user.name);
    case 'Group':
      return !!subject.group && (subject.group.name === '*' || user.groups.includes(subject.group.name));
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) return false;
      if (sa.name === '*') return user.name.startsWith(`${serviceAccountPrefix}${sa.namespace}:`);
      return user.name === `${serviceAccountPrefix}${sa.namespace}:${sa.name}`;
    }
    default:
      return false;
  }
}

function resourceRuleMatches(rule: ResourceRule, r: RequestDigest): boolean {
  if (!listMatches(rule.verbs, r.verb)) return false;
  const resource = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  if (!listMatches(rule.resources, resource)) return false;
  if (!listMatches(rule.apiGroups, r.group)) return false;
  if (!r.namespace) return rule.clusterScope === true;
  return listMatches(rule.namespaces, r.namespace);
}

export function nonResourcePathMatches(rulePath: string, path: string): boolean {
  if (rulePath === '*' || rulePath === path) return true;
  // `/healthz` and `/healthz/*` both cover `/healthz/etcd`
  let prefix = rulePath.endsWith('*') ? rulePath.slice(0, -1) : rulePath;
  if (!prefix.endsWith('/')) prefix += '/';
  return path.startsWith(prefix);
}

function nonResourceRuleMatches(rule: NonResourceRule, r: RequestDigest): boolean {
  return listMatches(rule.verbs, r.verb) && (rule.nonResourceURLs ?? []).some(p => nonResourcePathMatches(p, r.path));
}

function policyRulesMatch(rules: PolicyRules, user: User, r: RequestDigest): boolean {
  if (!(rules.subjects ?? []).some(s => subjectMatches(s, user))) return false;
  return r.isResourceRequest
    ? (rules.resourceRules ?? []).some(rule => resourceRuleMatches(rule, r))
    : (rules.nonResourceRules ?? []).some(rule => nonResourceRuleMatches(rule, r));
}

export function flowSchemaMatches(spec: FlowSchemaSpec, user: User, r: RequestDigest): boolean {
  return (spec.rules ?? []).some(rules => policyRulesMatch(rules, user, r));
}
