// Which requests a policy's matchConstraints, or a binding's matchResources, select: resource
// rules (groups, versions, resources with their `*` and `x/*` forms, operations, scope,
// resourceNames), excluded rules, the namespace and object selectors, and matchPolicy
// (Equivalent: a rule naming another served version of the same resource matches too).

import type { KubeObject } from '../../../../api/object.ts';
import { labelSelectorFromObject, matchesLabels } from '../../../../api/selectors/label.ts';
import type { Catalog } from '../../../../schema/types.ts';
import type { AdmissionAttributes, AdmissionDeps } from '../../types.ts';

export interface NamedRule {
  apiGroups?: string[]; apiVersions?: string[]; resources?: string[]; operations?: string[];
  scope?: string; resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: unknown; objectSelector?: unknown;
  resourceRules?: NamedRule[]; excludeResourceRules?: NamedRule[]; matchPolicy?: string;
}

/** what matching needs besides the request: namespace labels (undefined: no such namespace) */
export interface MatchContext {
  catalog: Catalog;
  namespaceLabels(namespace: string): Promise<Record<string, string> | undefined>;
}

/**
 * a request's namespace, read once and only if something asks (the namespace selector, or
 * `namespaceObject` in CEL), and the match context built on it; both kinds of policy use it
 */
export function requestNamespace(deps: Pick<AdmissionDeps, 'catalog' | 'registry'>, a: AdmissionAttributes): { read(): Promise<KubeObject | null>; ctx: MatchContext } {
  const nsInfo = deps.catalog.lookup('', 'v1', 'namespaces');
  let namespaceObject: Promise<KubeObject | null> | undefined;
  const read = () => namespaceObject ??= (!a.namespace || !nsInfo
    ? Promise.resolve(null)
    : deps.registry.get(nsInfo, undefined, a.namespace, undefined, true).catch(() => null));
  return { read, ctx: { catalog: deps.catalog, namespaceLabels: async () => (await read())?.metadata.labels as Record<string, string> | undefined } };
}

const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

function resourceMatches(patterns: string[] | undefined, resource: string, subresource: string): boolean {
  for (const p of patterns ?? []) {
    if (p === '*/*') return true;
    const [r, s = ''] = p.split('/');
    if ((r === '*' || r === resource) && (s === '*' ? true : s === subresource)) return true;
  }
  return false;
}

function ruleMatches(rule: NamedRule, a: AdmissionAttributes, version: string): boolean {
  const info = a.resource;
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, info.group) || !has(rule.apiVersions, version)) return false;
  if (!resourceMatches(rule.resources, info.resource, a.subresource)) return false;
  const scope = rule.scope ?? '*';
  // a namespaced resource asked for across namespaces is neither; Namespaces are cluster-scoped
  if (scope === 'Cluster' && info.namespaced) return false;
  if (scope === 'Namespaced' && !info.namespaced) return false;
  if (rule.resourceNames?.length && !rule.resourceNames.includes(a.name)) return false;
  return true;
}

/** the versions a rule may name for this request's resource: its own, or any served one (Equivalent) */
function versions(a: AdmissionAttributes, policy: string | undefined, catalog: Catalog): string[] {
  if (policy === 'Exact') return [a.resource.version];
  const group = catalog.groups().find(g => g.name === a.resource.group);
  const served = (group?.versions ?? []).filter(v => v !== a.resource.version && catalog.lookup(a.resource.group, v, a.resource.resource));
  return [a.resource.version, ...served];
}

function rulesMatch(rules: NamedRule[] | undefined, a: AdmissionAttributes, vs: string[]): boolean {
  return (rules ?? []).some(rule => vs.some(v => ruleMatches(rule, a, v)));
}

function labelsOf(o: KubeObject | undefined): Record<string, string> | undefined {
  return o?.metadata?.labels as Record<string, string> | undefined;
}

/** the selector is empty ({}), so nothing needs reading */
const selectsAll = (s: unknown) => s === undefined || s === null || (typeof s === 'object' && Object.keys(s as object).length === 0);

async function namespaceMatches(m: MatchResources, a: AdmissionAttributes, ctx: MatchContext): Promise<boolean> {
  if (selectsAll(m.namespaceSelector)) return true;
  const selector = labelSelectorFromObject(m.namespaceSelector);
  if (a.resource.group === '' && a.resource.resource === 'namespaces') {
    // a Namespace is matched by its own labels
    return matchesLabels(selector, labelsOf(a.object) ?? labelsOf(a.oldObject));
  }
  if (!a.resource.namespaced) return true; // other cluster-scoped resources always match
  if (!a.namespace) return true;
  const labels = await ctx.namespaceLabels(a.namespace);
  return matchesLabels(selector, labels ?? {});
}

function objectMatches(m: MatchResources, a: AdmissionAttributes): boolean {
  if (selectsAll(m.objectSelector)) return true;
  const selector = labelSelectorFromObject(m.objectSelector);
  return (!!a.object && matchesLabels(selector, labelsOf(a.object) ?? {}))
    || (!!a.oldObject && matchesLabels(selector, labelsOf(a.oldObject) ?? {}));
}

/**
 * Whether `m` selects the request. `requireRules`: a policy's matchConstraints select nothing
 * without resourceRules; a binding's absent matchResources select everything its policy does.
 */
export async function matchesResources(m: MatchResources | undefined, a: AdmissionAttributes, ctx: MatchContext, requireRules: boolean): Promise<boolean> {
  if (!m) return !requireRules;
  const vs = versions(a, m.matchPolicy, ctx.catalog);
  // a binding without resource rules narrows nothing: its policy's constraints decide
  if (requireRules || m.resourceRules?.length) {
    if (!rulesMatch(m.resourceRules, a, vs)) return false;
  }
  if (rulesMatch(m.excludeResourceRules, a, vs)) return false;
  if (!objectMatches(m, a)) return false;
  return namespaceMatches(m, a, ctx);
}
