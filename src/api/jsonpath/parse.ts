// The JSONPath of kubectl and client-go (k8s.io/client-go/util/jsonpath) for one expression, the
// text inside `{...}`, as a CRD's additionalPrinterColumns and selectableFields name them:
// `.spec.replicas`, `.status.conditions[?(@.type=="Ready")].status`, `.items[0:2]`, `..name`,
// `['a.b']`, `[*]`, `.*`. Template text and range/end blocks are kubectl output matters, not here.

export type Step =
  | { type: 'field'; names: string[] }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'index'; slices: Slice[] }
  | { type: 'filter'; left: Operand; op: FilterOp; right?: Operand };

export interface Slice { start?: number; end?: number; step?: number; single: boolean }
export type FilterOp = '==' | '!=' | '<' | '>' | '<=' | '>=' | 'exists';
export type Operand = { path: Step[]; fromRoot: boolean } | { literal: string | number | boolean };

export class JsonPathError extends Error {}

const terminators = new Set([' ', '\t', '\n', '\r', '.', ',', '[', ']', '$', '@', '{', '}', '(', ')', '=', '!', '<', '>']);

class Reader {
  at = 0;
  readonly text: string;
  constructor(text: string) { this.text = text; }
  peek(n = 0): string { return this.text[this.at + n] ?? ''; }
  done(): boolean { return this.at >= this.text.length; }
  fail(what: string): never { throw new JsonPathError(`${what} at position ${this.at} in ${JSON.stringify(this.text)}`); }
  skipSpace(): void { while (/\s/.test(this.peek())) this.at++; }
}

/** the steps of one expression; `$`/`@` at its start name the root, as they may */
export function parseJsonPath(text: string): Step[] {
  const r = new Reader(text.trim());
  if (r.peek() === '$' || r.peek() === '@') r.at++;
  const steps = parseSteps(r, () => r.done());
  if (!r.done()) r.fail('unexpected text');
  return steps;
}

function parseSteps(r: Reader, atEnd: () => boolean): Step[] {
  const steps: Step[] = [];
  while (!atEnd()) {
    const c = r.peek();
    if (c === '.') {
      r.at++;
      if (r.peek() === '.') { r.at++; steps.push({ type: 'recursive' }); }
      if (r.peek() === '[') continue;
      const name = fieldName(r);
      // a lone `.` is the object itself
      if (name === '') { if (atEnd()) break; r.fail('missing field name'); }
      steps.push(name === '*' ? { type: 'wildcard' } : { type: 'field', names: [name] });
    } else if (c === '[') {
      steps.push(bracket(r));
    } else {
      break;
    }
  }
  return steps;
}

function fieldName(r: Reader): string {
  let name = '';
  while (!r.done()) {
    const c = r.peek();
    if (c === '\\' && r.peek(1) !== '') { name += r.peek(1); r.at += 2; continue; }
    if (terminators.has(c)) break;
    name += c;
    r.at++;
  }
  return name;
}

function bracket(r: Reader): Step {
  r.at++; // [
  r.skipSpace();
  if (r.peek() === '?') return filter(r);
  const body: string[] = [];
  let part = '';
  let quote = '';
  for (;;) {
    if (r.done()) r.fail('unclosed [');
    const c = r.peek();
    r.at++;
    if (quote) {
      if (c === '\\' && r.peek() !== '') { part += r.peek(); r.at++; continue; }
      part += c;
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') { quote = c; part += c; continue; }
    if (c === ']') { body.push(part.trim()); break; }
    if (c === ',') { body.push(part.trim()); part = ''; continue; }
    part += c;
  }
  if (body.every(p => /^(['"]).*\1$/s.test(p))) return { type: 'field', names: body.map(p => p.slice(1, -1)) };
  // `[*]` is the whole list (a slice, so it errs on a map as client-go's does)
  if (body.length === 1 && body[0] === '*') return { type: 'index', slices: [{ single: false }] };
  return { type: 'index', slices: body.map(p => slice(r, p)) };
}

function slice(r: Reader, text: string): Slice {
  const num = (s: string | undefined): number | undefined => {
    if (s === undefined || s.trim() === '') return undefined;
    if (!/^\s*-?\d+\s*$/.test(s)) r.fail(`invalid array index ${JSON.stringify(text)}`);
    return Number(s);
  };
  const parts = text.split(':');
  if (parts.length > 3) r.fail(`invalid array index ${JSON.stringify(text)}`);
  if (parts.length === 1) {
    const i = num(parts[0]);
    if (i === undefined) r.fail('empty array index');
    return { start: i, single: true };
  }
  return { start: num(parts[0]), end: num(parts[1]), step: num(parts[2]), single: false };
}

function filter(r: Reader): Step {
  r.at++; // ?
  r.skipSpace();
  if (r.peek() !== '(') r.fail('expected ( after ?');
  r.at++;
  const left = operand(r);
  r.skipSpace();
  let op: FilterOp = 'exists';
  let right: Operand | undefined;
  const two = r.peek() + r.peek(1);
  if (['==', '!=', '<=', '>='].includes(two)) { op = two as FilterOp; r.at += 2; } else if (r.peek() === '<' || r.peek() === '>') { op = r.peek() as FilterOp; r.at++; }
  if (op !== 'exists') { r.skipSpace(); right = operand(r); r.skipSpace(); }
  if (r.peek() !== ')') r.fail('expected )');
  r.at++;
  r.skipSpace();
  if (r.peek() !== ']') r.fail('expected ]');
  r.at++;
  return right ? { type: 'filter', left, op, right } : { type: 'filter', left, op };
}

function operand(r: Reader): Operand {
  r.skipSpace();
  const c = r.peek();
  if (c === '@' || c === '$') {
    r.at++;
    return { path: parseSteps(r, () => r.done() || /[\s)=!<>]/.test(r.peek())), fromRoot: c === '$' };
  }
  if (c === "'" || c === '"') {
    const end = r.text.indexOf(c, r.at + 1);
    if (end < 0) r.fail('unclosed quote');
    const literal = r.text.slice(r.at + 1, end);
    r.at = end + 1;
    return { literal };
  }
  const m = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false)/.exec(r.text.slice(r.at));
  if (!m) r.fail('unrecognized filter operand');
  r.at += m[0].length;
  return { literal: m[0] === 'true' ? true : m[0] === 'false' ? false : Number(m[0]) };
}
