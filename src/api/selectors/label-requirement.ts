// One label selector requirement ("key in (a,b)"): its shape, its validation with Kubernetes'
// field-error wording, how it matches a label set, and its canonical string form.

import { goQuote } from './go-quote.ts';
import { labelKeyErrors, labelValueErrors } from '../label-rules.ts';

/** Kubernetes' selection operators, spelled as Kubernetes spells them */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** empty for exists / !; one value for =, ==, !=, gt, lt */
  values: string[];
}

export interface LabelSelector {
  /** ANDed, sorted by key */
  requirements: LabelRequirement[];
  /** no requirements: matches everything */
  empty: boolean;
  /** a nil metav1.LabelSelector: matches nothing */
  nothing?: boolean;
}

/** the value half of a field error: strings Go-quoted, lists as JSON (nil lists as null) */
function showBadValue(v: string | string[] | null): string {
  if (typeof v === 'string') return goQuote(v);
  // Go's encoder escapes HTML-significant characters
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function invalidField(path: string, value: string | string[] | null, detail: string): string {
  return `${path}: Invalid value: ${showBadValue(value)}: ${detail}`;
}

/** an aggregate of error strings: one stays bare, several are bracketed, duplicates drop */
export function aggregate(msgs: string[]): string {
  const unique = [...new Set(msgs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64) */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

/**
 * Checks a requirement as Kubernetes' NewRequirement does. `path` prefixes field paths
 * ("" for none). Returns the error text, or undefined when the requirement is valid.
 */
export function requirementError(r: LabelRequirement, path = '', valuesWereNil = false): string | undefined {
  const at = (p: string) => (path ? `${path}.${p}` : p);
  const errs: string[] = [];
  const keyErrs = labelKeyErrors(r.key);
  if (keyErrs.length) errs.push(invalidField(at('key'), r.key, keyErrs.join('; ')));
  const vals = r.values;
  const shown = valuesWereNil && vals.length === 0 ? null : vals;
  switch (r.operator) {
    case 'in': case 'notin':
      if (vals.length === 0) errs.push(invalidField(at('values'), shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (vals.length !== 1) errs.push(invalidField(at('values'), shown, 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (vals.length !== 0) errs.push(invalidField(at('values'), shown, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (vals.length !== 1) errs.push(invalidField(at('values'), shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalidField(`${at('values')}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
  }
  vals.forEach((v, i) => {
    const valErrs = labelValueErrors(v);
    if (valErrs.length) errs.push(invalidField(`${at('values')}[${i}][${r.key}]`, v, valErrs.join('; ')));
  });
  return errs.length ? aggregate(errs) : undefined;
}

export function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
  const val = has ? labels![r.key]! : '';
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has && r.values.includes(val);
    case 'notin': case '!=':
      return !has || !r.values.includes(val);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const got = parseInt64(val);
      const want = parseInt64(r.values[0]!);
      if (got === undefined || want === undefined) return false;
      return r.operator === 'gt' ? got > want : got < want;
    }
  }
}

const infix: Record<LabelOperator, string> = {
  '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '',
};

/** "key", "!key", "key=v", "key in (a,b)" — several values print sorted */
export function requirementString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const vals = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${infix[r.operator]}${set ? `(${vals})` : vals}`;
}
