// A CEL type checker over @bufbuild/cel's parsed AST (its own checker types constants and
// identifiers only), following cel-go's checker: every node gets a type, calls resolve against
// the overloads of overloads.ts with type parameters unified, fields are looked up in declared
// object types, and problems are reported in cel-go's words ("undefined field 'x'", "found no
// matching overload for '_+_' applied to '(int, string)'"). Literal lists and maps must be
// homogeneous, as Kubernetes' environments ask. dyn and error types match anything, so one
// mistake is reported once.

import type { CelExpr } from '../compile.ts';
import { overloadsOf, type Overload } from './overloads.ts';
import { BOOL, BYTES, DOUBLE, DYN, ERROR, INT, NULL, STRING, UINT, formatType, isDynOrError, listOf, mapOf, param, prim, type CelType, type Primitive } from './types.ts';

/** `token`: the text the problem is located at, the first after the node's parsed position */
export interface CheckProblem { id: bigint; message: string; token?: string }

/** where cel-go locates a call: its operator, or the '(' of a named function */
function callToken(name: string): string {
  if (name === '_?_:_') return '?';
  if (name === '_[_]') return '[';
  if (name === '@in') return 'in';
  const op = /^_(.+)_$/.exec(name) ?? /^(.)_$/.exec(name);
  return op ? op[1]! : '(';
}

export interface Checked {
  /** the whole expression's type */
  type: CelType;
  types: Map<bigint, CelType>;
  /** the overloads a call resolved to, by call id */
  overloads: Map<bigint, string[]>;
  problems: CheckProblem[];
}

type Subs = Map<string, CelType>;

const typeNames = new Set<Primitive>(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'null_type', 'dyn']);

/** `t` with the type parameters bound in `subs` replaced */
function resolve(t: CelType, subs: Subs, depth = 0): CelType {
  if (depth > 32) return DYN;
  switch (t.kind) {
    case 'param': { const b = subs.get(t.name); return b && b !== t ? resolve(b, subs, depth + 1) : t; }
    case 'list': return { ...t, elem: resolve(t.elem, subs, depth + 1) };
    case 'map': return { ...t, key: resolve(t.key, subs, depth + 1), value: resolve(t.value, subs, depth + 1) };
    case 'opaque': return t.params.length ? { ...t, params: t.params.map(p => resolve(p, subs, depth + 1)) } : t;
    case 'type': return t.of ? { kind: 'type', of: resolve(t.of, subs, depth + 1) } : t;
    default: return t;
  }
}

/** whether a value of type `actual` may be passed where `formal` is expected, binding parameters */
export function assignable(actual: CelType, formal: CelType, subs: Subs): boolean {
  if (formal.kind === 'param') {
    const bound = subs.get(formal.name);
    if (!bound) { subs.set(formal.name, actual); return true; }
    if (assignable(actual, bound, subs)) return true;
    // a wider binding (null, then an object; a list of free elements, then a typed list)
    const trial = new Map(subs);
    if (assignable(bound, actual, trial)) { for (const [k, v] of trial) subs.set(k, v); subs.set(formal.name, actual); return true; }
    return false;
  }
  if (actual.kind === 'param') {
    const bound = subs.get(actual.name);
    if (bound) return assignable(bound, formal, subs);
    subs.set(actual.name, formal);
    return true;
  }
  if (isDynOrError(actual) || isDynOrError(formal)) return true;
  // cel-go keeps its legacy checker's nullable types: objects, opaque types, timestamps, durations
  if (actual.kind === 'null_type') return nullable(formal);
  if (formal.kind === 'null_type') return nullable(actual);
  switch (formal.kind) {
    case 'list': return actual.kind === 'list' && assignable(actual.elem, formal.elem, subs);
    case 'map': return actual.kind === 'map' && assignable(actual.key, formal.key, subs) && assignable(actual.value, formal.value, subs);
    case 'object': return actual.kind === 'object' && (actual === formal || actual.name === formal.name);
    case 'opaque': return actual.kind === 'opaque' && actual.name === formal.name && actual.params.every((p, i) => assignable(p, formal.params[i] ?? DYN, subs));
    case 'type': return actual.kind === 'type';
    default: return actual.kind === formal.kind;
  }
}

const nullable = (t: CelType) => ['null_type', 'object', 'opaque', 'timestamp', 'duration'].includes(t.kind);
const mutual = (a: CelType, b: CelType) => assignable(a, b, new Map()) && assignable(b, a, new Map());

export function checkExpression(root: CelExpr, variables: ReadonlyMap<string, CelType>): Checked {
  const out: Checked = { type: DYN, types: new Map(), overloads: new Map(), problems: [] };
  let free = 0;
  const set = (e: CelExpr, t: CelType): CelType => { out.types.set(e.id, t); return t; };
  const report = (id: bigint, message: string, token?: string): CelType => { out.problems.push({ id, message, ...(token ? { token } : {}) }); return ERROR; };

  const call = (e: CelExpr, name: string, target: CelExpr | undefined, args: readonly CelExpr[], scope: Map<string, CelType>): CelType => {
    const argTypes = [...(target ? [visit(target, scope)] : []), ...args.map(a => visit(a, scope))];
    if (name === '_&&_' || name === '_||_') {
      let bad = false;
      args.forEach((a, i) => { if (!assignable(argTypes[i]!, BOOL, new Map())) { report(a.id, `expected type 'bool' but found '${formatType(argTypes[i]!)}'`); bad = true; } });
      out.overloads.set(e.id, [name === '_&&_' ? 'logical_and' : 'logical_or']);
      return bad ? ERROR : BOOL;
    }
    const candidates = overloadsOf(name);
    if (!candidates) return DYN; // undeclared: compile reported it
    let result: CelType | undefined;
    const matched: string[] = [];
    for (const o of candidates as Overload[]) {
      if (o.member !== !!target || o.args.length !== argTypes.length) continue;
      const subs: Subs = new Map();
      if (!argTypes.every((t, i) => assignable(t, o.args[i]!, subs))) continue;
      matched.push(o.id);
      const r = resolve(o.result, subs);
      const concrete = r.kind === 'param' ? DYN : r;
      result = result === undefined ? concrete : mutual(result, concrete) && result.kind === concrete.kind ? result : DYN;
    }
    if (result === undefined) {
      const shown = argTypes.map(formatType);
      const sig = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      return report(e.id, `found no matching overload for '${name}' applied to '${sig}'`, callToken(name));
    }
    out.overloads.set(e.id, matched);
    return result;
  };

  const select = (e: CelExpr, operand: CelExpr, field: string, testOnly: boolean, scope: Map<string, CelType>): CelType => {
    const t = visit(operand, scope);
    let r: CelType;
    if (t.kind === 'map') r = t.value;
    else if (t.kind === 'object') r = t.fields.get(field) ?? report(e.id, `undefined field '${field}'`);
    else if (isDynOrError(t) || t.kind === 'param') r = DYN;
    else r = report(e.id, `type '${formatType(t)}' does not support field selection`);
    return testOnly ? (r.kind === 'error' ? r : BOOL) : r;
  };

  const visit = (e: CelExpr, scope: Map<string, CelType>): CelType => {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind;
        const t = c.case === 'int64Value' ? INT : c.case === 'uint64Value' ? UINT : c.case === 'doubleValue' ? DOUBLE
          : c.case === 'stringValue' ? STRING : c.case === 'bytesValue' ? BYTES : c.case === 'boolValue' ? BOOL : c.case === 'nullValue' ? NULL : DYN;
        return set(e, t);
      }
      case 'identExpr': {
        const name = k.value.name;
        const t = scope.get(name) ?? variables.get(name) ?? (typeNames.has(name as Primitive) ? { kind: 'type', of: prim(name as Primitive) } as CelType : DYN);
        return set(e, t);
      }
      case 'selectExpr': return set(e, k.value.operand ? select(e, k.value.operand, k.value.field, k.value.testOnly, scope) : DYN);
      case 'callExpr': return set(e, call(e, k.value.function, k.value.target, k.value.args, scope));
      case 'listExpr': {
        let elem: CelType | undefined;
        for (const x of k.value.elements) {
          const t = visit(x, scope);
          if (elem === undefined || isDynOrError(elem)) elem = t;
          else if (!isDynOrError(t) && !mutual(elem, t)) report(x.id, `expected type '${formatType(elem)}' but found '${formatType(t)}'`);
        }
        return set(e, listOf(elem ?? param(`_free${++free}`)));
      }
      case 'structExpr': {
        if (k.value.messageName) { k.value.entries.forEach(en => en.value && visit(en.value, scope)); return set(e, DYN); }
        let key: CelType | undefined, value: CelType | undefined;
        for (const en of k.value.entries) {
          const kt = en.keyKind.case === 'mapKey' ? visit(en.keyKind.value, scope) : STRING;
          const vt = en.value ? visit(en.value, scope) : DYN;
          if (key === undefined) key = kt; else if (!mutual(key, kt)) report(en.id, `expected type '${formatType(key)}' but found '${formatType(kt)}'`);
          if (value === undefined) value = vt; else if (!mutual(value, vt)) report(en.id, `expected type '${formatType(value)}' but found '${formatType(vt)}'`);
        }
        return set(e, mapOf(key ?? param(`_free${++free}`), value ?? param(`_free${++free}`)));
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = c.iterRange ? visit(c.iterRange, scope) : DYN;
        let first: CelType = DYN, second: CelType = DYN;
        if (range.kind === 'list') { if (c.iterVar2) { first = INT; second = range.elem; } else first = range.elem; }
        else if (range.kind === 'map') { first = range.key; second = range.value; }
        else if (!isDynOrError(range)) report(c.iterRange!.id, `expression of type '${formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        let accu = c.accuInit ? visit(c.accuInit, scope) : DYN;
        const inner = new Map(scope);
        inner.set(c.iterVar, first);
        if (c.iterVar2) inner.set(c.iterVar2, second);
        inner.set(c.accuVar, accu);
        if (c.loopStep) {
          const step = visit(c.loopStep, inner);
          // the accumulator's type is what the step makes of it (a mapped list's elements)
          if (!isDynOrError(step)) { accu = step; inner.set(c.accuVar, accu); }
        }
        if (c.loopCondition) visit(c.loopCondition, inner);
        const after = new Map(scope);
        after.set(c.accuVar, accu);
        return set(e, c.result ? visit(c.result, after) : DYN);
      }
      default: return set(e, DYN);
    }
  };
  out.type = visit(root, new Map());
  return out;
}
