// Evaluating a parsed JSONPath over a JSON value as client-go's jsonpath does with missing keys
// allowed (what the CRD table convertor sets): a key that is absent yields nothing, while what
// client-go reports as an error (an index out of bounds, indexing or filtering something that
// is not a list, comparing values of different types) ends the whole evaluation, so callers
// treat it as no result.

import { JsonPathError, parseJsonPath, type Operand, type Slice, type Step } from './parse.ts';

export { JsonPathError, parseJsonPath, type Step } from './parse.ts';

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** every value `steps` select from `root`, in client-go's order; throws JsonPathError where it errs */
export function evaluateJsonPath(steps: Step[], root: unknown): unknown[] {
  return walk(steps, [root], root);
}

/** the values a path text selects (parse and evaluate) */
export function findJsonPath(path: string, root: unknown): unknown[] {
  return evaluateJsonPath(parseJsonPath(path), root);
}

function walk(steps: Step[], values: unknown[], root: unknown): unknown[] {
  let cur = values;
  for (const step of steps) cur = apply(step, cur, root);
  return cur;
}

function apply(step: Step, values: unknown[], root: unknown): unknown[] {
  const out: unknown[] = [];
  switch (step.type) {
    case 'field':
      for (const v of values) {
        if (!isMap(v)) continue;
        for (const name of step.names) if (Object.prototype.hasOwnProperty.call(v, name)) out.push(v[name]);
      }
      return out;
    case 'wildcard':
      for (const v of values) {
        if (Array.isArray(v)) out.push(...v);
        else if (isMap(v)) for (const k of Object.keys(v).sort()) out.push(v[k]);
      }
      return out;
    case 'recursive':
      for (const v of values) descend(v, out);
      return out;
    case 'index':
      for (const v of values) {
        if (!Array.isArray(v)) throw new JsonPathError(`${typeName(v)} is not array or slice`);
        for (const s of step.slices) out.push(...sliceOf(v, s));
      }
      return out;
    case 'filter':
      for (const v of values) {
        if (!Array.isArray(v)) throw new JsonPathError(`${typeName(v)} is not array or slice and cannot be filtered`);
        for (const item of v) if (passes(step, item, root)) out.push(item);
      }
      return out;
  }
}

/** a value and everything below it, parents first */
function descend(v: unknown, out: unknown[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) descend(x, out);
  else if (isMap(v)) for (const k of Object.keys(v).sort()) descend(v[k], out);
}

function sliceOf(list: unknown[], s: Slice): unknown[] {
  const n = list.length;
  let start = s.start ?? 0;
  if (start < 0) start += n;
  let end = s.single ? start + 1 : s.end ?? n;
  if (!s.single && end < 0) end += n;
  if (start === end) return [];
  if (start >= n || start < 0) throw new JsonPathError(`array index out of bounds: index ${start}, length ${n}`);
  if (end > n || end < 0) throw new JsonPathError(`array index out of bounds: index ${end - 1}, length ${n}`);
  if (start > end) throw new JsonPathError(`starting index ${start} is greater than ending index ${end}`);
  const step = s.step ?? 1;
  if (step <= 0) throw new JsonPathError('step must be > 0');
  const out: unknown[] = [];
  for (let i = start; i < end; i += step) out.push(list[i]);
  return out;
}

function operandValues(o: Operand, item: unknown, root: unknown): unknown[] {
  if ('literal' in o) return [o.literal];
  return walk(o.path, [o.fromRoot ? root : item], root);
}

function one(o: Operand, item: unknown, root: unknown): { value: unknown } | undefined {
  const vs = operandValues(o, item, root);
  if (vs.length === 0) return undefined;
  if (vs.length > 1) throw new JsonPathError('can only compare one element at a time');
  return { value: vs[0] };
}

function passes(step: Extract<Step, { type: 'filter' }>, item: unknown, root: unknown): boolean {
  const left = one(step.left, item, root);
  if (!left) return false;
  if (step.op === 'exists' || !step.right) return true;
  const right = one(step.right, item, root);
  if (!right) return false;
  return compare(step.op, left.value, right.value);
}

// Go's template comparisons: values of one basic kind only; order only for numbers and strings
function compare(op: string, a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b || a === null || b === null || typeof a === 'object') {
    if (op === '!=' && a !== b && (a === null || b === null)) return true;
    if (op === '==' && a === null && b === null) return true;
    throw new JsonPathError('incompatible types for comparison');
  }
  switch (op) {
    case '==': return a === b;
    case '!=': return a !== b;
  }
  if (typeof a === 'boolean') throw new JsonPathError('invalid type for comparison');
  const x = a as number | string, y = b as number | string;
  switch (op) {
    case '<': return x < y;
    case '>': return x > y;
    case '<=': return x <= y;
    default: return x >= y;
  }
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}
