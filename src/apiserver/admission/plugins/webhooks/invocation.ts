// Whether a webhook is called for a request, and in which version: namespaceSelector,
// objectSelector, rules (the request's own resource first; under matchPolicy Equivalent, the
// same resource in another served version), then matchConditions, in kube-apiserver's order.
// A selector that cannot be evaluated only counts when the rules match.

import { StatusError, internalError } from '../../../../api/status.ts';
import { matchesLabels } from '../../../../api/selectors/label.ts';
import type { KubeObject } from '../../../../api/object.ts';
import type { Catalog, ResourceInfo } from '../../../../schema/types.ts';
import type { AdmissionAttributes } from '../../types.ts';
import type { Hook } from './hook.ts';
import { ruleMatches } from './rules.ts';
import { matchConditionsFailed } from './errors.ts';
import type { GVK, GVR } from './review.ts';
import type { MatchConditionVariables } from './match-condition.ts';

export interface Invocation {
  hook: Hook;
  resource: GVR;
  kind: GVK;
}

export interface MatchContext {
  catalog: Catalog;
  /** a namespace's labels; a 404 StatusError when it does not exist */
  namespaceLabels(name: string): Promise<Record<string, string> | undefined>;
  /** the CEL variables of the request in the invocation's version */
  variables(inv: Invocation): MatchConditionVariables;
}

/** the kind a request's body has: the subresource's own kind (Scale, Eviction) or the resource's */
export function kindOf(info: ResourceInfo, subresource: string): GVK {
  const sub = subresource ? info.subresources.find(s => s.name === subresource) : undefined;
  return sub ? { group: sub.group, version: sub.version, kind: sub.kind } : { group: info.group, version: info.version, kind: info.kind };
}

async function namespaceMatches(hook: Hook, a: AdmissionAttributes, ctx: MatchContext): Promise<boolean | StatusError> {
  const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
  // a cluster-scoped request other than for a namespace is never exempted by the selector
  if (!a.namespace && !isNamespace) return true;
  const sel = hook.namespaceSelector;
  if (sel instanceof Error) return internalError(sel);
  if (sel.empty) return true;
  let labels: Record<string, string> | undefined;
  if (isNamespace) {
    const obj = a.operation === 'DELETE' ? a.oldObject : a.object;
    labels = obj?.metadata.labels;
  } else {
    try {
      labels = await ctx.namespaceLabels(a.namespace);
    } catch (err) {
      return err instanceof StatusError ? err : internalError(err);
    }
  }
  return matchesLabels(sel, labels);
}

function objectMatches(hook: Hook, a: AdmissionAttributes): boolean | StatusError {
  const sel = hook.objectSelector;
  if (sel instanceof Error) return internalError(sel);
  if (sel.empty) return true;
  const matches = (o: KubeObject | undefined) => !!o && matchesLabels(sel, o.metadata?.labels);
  return matches(a.object) || matches(a.oldObject);
}

function equivalents(catalog: Catalog, info: ResourceInfo): ResourceInfo[] {
  const group = catalog.groups().find(g => g.name === info.group);
  return (group?.versions ?? [])
    .filter(v => v !== info.version)
    .map(v => catalog.lookup(info.group, v, info.resource))
    .filter((r): r is ResourceInfo => !!r);
}

function matchingRules(hook: Hook, a: AdmissionAttributes, r: { group: string; version: string; resource: string }): boolean {
  const target = { operation: a.operation, group: r.group, version: r.version, resource: r.resource, subresource: a.subresource, namespace: a.namespace };
  return (hook.spec.rules ?? []).some(rule => ruleMatches(rule, target));
}

/** the invocation, undefined when the webhook does not apply; throws the StatusError that stops the request */
export async function invocationFor(hook: Hook, a: AdmissionAttributes, ctx: MatchContext): Promise<Invocation | undefined> {
  const ns = await namespaceMatches(hook, a, ctx);
  if (ns === false) return undefined;
  const obj = objectMatches(hook, a);
  if (obj === false) return undefined;
  const info = a.resource;
  let inv: Invocation | undefined;
  if (matchingRules(hook, a, info)) {
    inv = { hook, resource: { group: info.group, version: info.version, resource: info.resource }, kind: kindOf(info, a.subresource) };
  } else if (hook.spec.matchPolicy !== 'Exact') {
    // earlier rules first, each against every equivalent resource
    outer: for (const rule of hook.spec.rules ?? []) {
      for (const eq of equivalents(ctx.catalog, info)) {
        const target = { operation: a.operation, group: eq.group, version: eq.version, resource: eq.resource, subresource: a.subresource, namespace: a.namespace };
        if (ruleMatches(rule, target)) {
          inv = { hook, resource: { group: eq.group, version: eq.version, resource: eq.resource }, kind: kindOf(eq, a.subresource) };
          break outer;
        }
      }
    }
  }
  if (!inv) return undefined;
  if (ns instanceof StatusError) throw ns;
  if (obj instanceof StatusError) throw obj;
  if (!hook.conditions.length) return inv;
  const vars = ctx.variables(inv);
  const errors: Error[] = [];
  for (const c of hook.conditions) {
    const out = c.program instanceof Error ? c.program : c.program(vars);
    // any condition false skips the webhook, whatever errors the others had
    if (out === false) return undefined;
    if (out instanceof Error) errors.push(out);
  }
  if (!errors.length) return inv;
  if (hook.failurePolicy === 'Ignore') return undefined;
  throw matchConditionsFailed(info.group, info.resource, a.name, errors);
}
