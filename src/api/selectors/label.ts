// Label selectors: the labelSelector query string, metav1.LabelSelector objects (matchLabels /
// matchExpressions), matching against an object's labels, and the canonical string form that
// Scale.status.selector and kubectl show.

import { badRequest } from '../status.ts';
import { goQuote } from './go-quote.ts';
import { parseRequirements } from './label-parser.ts';
import type { LabelOperator, LabelRequirement, LabelSelector } from './label-requirement.ts';
import { requirementError, requirementMatches, requirementString } from './label-requirement.ts';

export type { LabelOperator, LabelRequirement, LabelSelector } from './label-requirement.ts';
export { labelKeyErrors, labelValueErrors } from '../label-rules.ts';

/** matches every object */
export const everything: LabelSelector = Object.freeze({ requirements: [], empty: true }) as LabelSelector;

/** matches no object (what a missing metav1.LabelSelector means) */
export const nothing: LabelSelector = Object.freeze({ requirements: [], empty: false, nothing: true }) as LabelSelector;

function byKey(reqs: LabelRequirement[]): LabelRequirement[] {
  // stable, so requirements on one key keep their written order
  return reqs.map((r, i) => [r, i] as const)
    .sort(([a, i], [b, j]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : i - j))
    .map(([r]) => r);
}

function selectorOf(reqs: LabelRequirement[]): LabelSelector {
  return { requirements: byKey(reqs), empty: reqs.length === 0 };
}

/**
 * Parses a labelSelector query value ("app=web,tier in (a,b),!canary").
 * Throws a 400 BadRequest StatusError worded as Kubernetes words it.
 */
export function parseLabelSelector(s: string): LabelSelector {
  try {
    return selectorOf(parseRequirements(s));
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}

export function matchesLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  if (sel.nothing) return false;
  if (sel.empty) return true;
  return sel.requirements.every(r => requirementMatches(r, labels));
}

const expressionOperators: Record<string, LabelOperator> = {
  In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!',
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A metav1.LabelSelector as a selector: undefined/null matches nothing, {} matches everything.
 * Invalid keys, values or operators throw a 400 BadRequest with Kubernetes' wording.
 */
export function labelSelectorFromObject(obj: unknown): LabelSelector {
  if (obj === undefined || obj === null) return nothing;
  if (!isRecord(obj)) throw badRequest('label selector must be an object');
  const matchLabels = isRecord(obj.matchLabels) ? obj.matchLabels : {};
  const matchExpressions = Array.isArray(obj.matchExpressions) ? obj.matchExpressions : [];
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(matchLabels)) {
    const r: LabelRequirement = { key, operator: '=', values: [String(value)] };
    const err = requirementError(r);
    if (err) throw badRequest(err);
    reqs.push(r);
  }
  for (const raw of matchExpressions) {
    const e = isRecord(raw) ? raw : {};
    const op = typeof e.operator === 'string' ? expressionOperators[e.operator] : undefined;
    if (!op) throw badRequest(`${goQuote(String(e.operator ?? ''))} is not a valid label selector operator`);
    const valuesWereNil = !Array.isArray(e.values);
    const values = valuesWereNil ? [] : (e.values as unknown[]).map(String);
    const r: LabelRequirement = { key: String(e.key ?? ''), operator: op, values };
    const err = requirementError(r, '', valuesWereNil);
    if (err) throw badRequest(err);
    reqs.push(r);
  }
  return selectorOf(reqs);
}

/** a selector from a plain label map (ReplicationController.spec.selector, Service.spec.selector) */
export function labelSelectorFromSet(set: Record<string, string> | undefined): LabelSelector {
  if (!set) return everything;
  return selectorOf(Object.entries(set).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

/** the canonical string: requirements by key, comma-joined ("app=web,tier in (a,b)"); "" for nothing */
export function formatLabelSelector(sel: LabelSelector): string {
  return sel.requirements.map(requirementString).join(',');
}

/** the single value a selector demands for a key (=, == or a one-value in), as Kubernetes' RequiresExactMatch */
export function labelExactMatch(sel: LabelSelector, key: string): string | undefined {
  const r = sel.requirements.find(q => q.key === key);
  if (!r) return undefined;
  const exact = r.operator === '=' || r.operator === '==' || r.operator === 'in';
  return exact && r.values.length === 1 ? r.values[0] : undefined;
}
