// Whether a webhook rule covers a request: operation, API group, version, resource with its
// subresource (`pods`, `pods/status`, `pods/*`, `*`, `*/*`, `*/scale`), and scope, as
// kube-apiserver's rule matcher reads them. `*` as a resource covers main resources only; a
// subresource must be named or wildcarded after the slash.

import type { RuleWithOperations } from './hook.ts';
import { isAdmissionConfiguration } from '../admission-configuration.ts';

export interface RuleTarget {
  operation: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
}

function anyOf(list: string[] | undefined, value: string): boolean {
  return (list ?? []).some(x => x === '*' || x === value);
}

function splitResource(r: string): [string, string] {
  const slash = r.indexOf('/');
  return slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
}

function resourceMatches(resources: string[] | undefined, t: RuleTarget): boolean {
  return (resources ?? []).some(r => {
    const [res, sub] = splitResource(r);
    return (res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource);
  });
}

function isNamespaceResource(t: RuleTarget): boolean {
  return t.group === '' && t.version === 'v1' && t.resource === 'namespaces';
}

function scopeMatches(scope: string | undefined, t: RuleTarget): boolean {
  // Namespace objects are cluster-scoped although their requests name a namespace
  switch (scope ?? '*') {
    case 'Namespaced': return !isNamespaceResource(t) && t.namespace !== '';
    case 'Cluster': return isNamespaceResource(t) || t.namespace === '';
    default: return true;
  }
}

export function ruleMatches(rule: RuleWithOperations, t: RuleTarget): boolean {
  return anyOf(rule.operations, t.operation)
    && anyOf(rule.apiGroups, t.group)
    && anyOf(rule.apiVersions, t.version)
    && resourceMatches(rule.resources, t)
    && scopeMatches(rule.scope, t);
}

/** writes of admission configuration itself never go to webhooks (see admission-configuration.ts) */
export const isExemptFromWebhooks = isAdmissionConfiguration;
