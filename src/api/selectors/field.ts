// Field selectors: the fieldSelector query string ("spec.nodeName=n1,status.phase!=Failed"),
// matching against an object's field set, and the metadata.name / metadata.namespace pins the
// store uses to narrow a read. Which fields a resource offers lives in src/schema/field-selectors.ts.

import { badRequest } from '../status.ts';

/** "==" is read as "=" (Kubernetes keeps no distinction once parsed) */
export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  value: string;
}

export interface FieldSelector {
  /** ANDed, in the order Kubernetes evaluates them (terms sorted as written) */
  requirements: FieldRequirement[];
  /** no requirements: matches everything */
  empty: boolean;
}

/** "\" "," and "=" inside a value are written "\\" "\," "\=" */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, c => `\\${c}`);
}

export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Kubernetes prints the offending rune as its number
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** splits on commas that are not escaped */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') { terms.push(s.slice(start, i)); start = i + 1; }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

/** the first operator in the term wins; nothing is trimmed ("a = b" selects field "a ") */
function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/** Parses a fieldSelector query value. Throws a 400 BadRequest worded as Kubernetes words it. */
export function parseFieldSelector(s: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(s).sort()) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (!parts) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const [field, op, raw] = parts;
    requirements.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(raw) });
  }
  return { requirements, empty: requirements.length === 0 };
}

/** a field that is absent from the set reads as "" */
export function matchesFields(sel: FieldSelector, fields: Record<string, string>): boolean {
  return sel.requirements.every(r => {
    const got = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
    return r.operator === '=' ? got === r.value : got !== r.value;
  });
}

/**
 * The value the selector pins `field` to with "=", like Kubernetes' RequiresExactMatch.
 * An empty pinned value gives undefined: it names no object, so it cannot narrow a read.
 */
export function exactMatch(sel: FieldSelector, field: string): string | undefined {
  const r = sel.requirements.find(q => q.field === field && q.operator === '=');
  return r && r.value !== '' ? r.value : undefined;
}

export function exactName(sel: FieldSelector): string | undefined {
  return exactMatch(sel, 'metadata.name');
}

export function exactNamespace(sel: FieldSelector): string | undefined {
  return exactMatch(sel, 'metadata.namespace');
}

/** the canonical string ("a=b,c!=d"), values escaped */
export function formatFieldSelector(sel: FieldSelector): string {
  return sel.requirements.map(r => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/** a new selector with each field renamed (aliases such as spec.host → spec.nodeName) */
export function renameFields(sel: FieldSelector, rename: (field: string) => string): FieldSelector {
  return { requirements: sel.requirements.map(r => ({ ...r, field: rename(r.field) })), empty: sel.empty };
}
