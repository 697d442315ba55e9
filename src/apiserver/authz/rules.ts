// RBAC policy rules and whether one allows a request: the matching rules of Kubernetes' RBAC
// authorizer (wildcards, `resource/subresource`, `*/subresource`, resourceNames, and
// nonResourceURLs with a trailing `*` as a prefix match).

/** what of a request the rules look at */
export interface RuleRequest {
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

export function verbMatches(r: PolicyRule, verb: string): boolean {
  return has(r.verbs, verb);
}

export function resourceMatches(r: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const want of r.resources ?? []) {
    if (want === '*' || want === combined) return true;
    // `*/scale` names that subresource of every resource
    if (subresource && want.length === subresource.length + 2 && want.startsWith('*/') && want.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(r: PolicyRule, name: string): boolean {
  if (!r.resourceNames?.length) return true;
  return r.resourceNames.includes(name);
}

export function nonResourceURLMatches(r: PolicyRule, path: string): boolean {
  for (const url of r.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

export function ruleAllows(a: RuleRequest, r: PolicyRule): boolean {
  if (!verbMatches(r, a.verb)) return false;
  if (!a.isResourceRequest) return nonResourceURLMatches(r, a.path);
  return has(r.apiGroups, a.apiGroup) && resourceMatches(r, a.resource, a.subresource) && resourceNameMatches(r, a.name);
}

/** a rule as `kubectl describe` and the escalation message print it: only the fields set */
export function compactRule(r: PolicyRule): string {
  const list = (xs: string[]) => `[${xs.map(x => JSON.stringify(x)).join(' ')}]`;
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${list(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${list(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${list(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${list(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${list(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}
