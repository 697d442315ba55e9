// Compiling a CEL expression as Kubernetes does before it runs one: parse, then check every
// identifier and function against what the environment declares, so a typo is a compile error
// ("undeclared reference to 'x' (in container '')") when the policy is read, not a runtime error
// on each request. @bufbuild/cel has no public type checker; callers that know their variables'
// types pass checker/'s (CRD rules do), others find a wrong overload at evaluation. Errors are
// written as cel-go writes them: `ERROR: <input>:line:col: message`, the line, and a caret.

import { isCelError, parse, plan, type CelEnv, type CelResult } from '@bufbuild/cel';
import { kubernetesEnv, plannerFunctions, typeIdentifiers } from './environment.ts';

type Parsed = ReturnType<typeof parse>;
type Expr = NonNullable<Parsed['expr']>;
export type CelExpr = Expr;

export class CelCompileError extends Error {}

export interface CompiledExpression {
  readonly expression: string;
  /** evaluates with the given bindings (already CEL inputs); a CelError on failure */
  run(bindings: Record<string, unknown>): CelResult;
}

/** the location `offset` is at, 1-based line and column, with cel-go's snippet and caret */
function located(src: string, offset: number, message: string): string {
  const before = src.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart;
  const text = src.slice(lineStart).split('\n')[0];
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${text}\n | ${'.'.repeat(column)}^`;
}

function syntaxError(src: string, err: Error): string {
  const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(err.message);
  if (!m) return `ERROR: <input>:1:1: Syntax error: ${err.message}`;
  const lines = src.split('\n');
  let offset = 0;
  for (let i = 0; i < Number(m[1]) - 1; i++) offset += lines[i]!.length + 1;
  return located(src, offset + Number(m[2]) - 1, `Syntax error: ${m[3]}`);
}

/** the typed objects MutatingAdmissionPolicy expressions build (`Object{spec: Object.spec{...}}`, `JSONPatch{...}`) */
const objectTypeName = /^(Object(\.[A-Za-z0-9_]+)*|JSONPatch)$/;

/**
 * Typed object construction as plain maps: Kubernetes types `Object.spec{...}` from the schema,
 * and what orch does with the result (merge it, or read a patch) only needs its fields.
 */
function objectsAsMaps(e: Expr | undefined, nextId: () => bigint): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': objectsAsMaps(k.value.operand, nextId); return;
    case 'callExpr': {
      objectsAsMaps(k.value.target, nextId);
      k.value.args.forEach(a => objectsAsMaps(a, nextId));
      return;
    }
    case 'listExpr': k.value.elements.forEach(x => objectsAsMaps(x, nextId)); return;
    case 'structExpr': {
      const typed = k.value.messageName !== '' && objectTypeName.test(k.value.messageName);
      if (typed) k.value.messageName = '';
      for (const en of k.value.entries) {
        if (typed && en.keyKind.case === 'fieldKey') {
          const key = { $typeName: 'cel.expr.Expr', id: nextId(), exprKind: { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'stringValue', value: en.keyKind.value } } } };
          en.keyKind = { case: 'mapKey', value: key as never };
        } else if (en.keyKind.case === 'mapKey') objectsAsMaps(en.keyKind.value, nextId);
        objectsAsMaps(en.value, nextId);
      }
      return;
    }
    case 'comprehensionExpr': {
      const c = k.value;
      [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].forEach(x => objectsAsMaps(x, nextId));
      return;
    }
    default: return;
  }
}

/**
 * Qualified function names (`sets.contains(a, b)`, `jsonpatch.escapeKey(k)`) parse as a method
 * call on an identifier; cel-go's checker resolves them to the function of the full name, and so
 * does this, unless the identifier is a variable.
 */
function qualifiedCalls(e: Expr | undefined, variables: ReadonlySet<string>): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': qualifiedCalls(k.value.operand, variables); return;
    case 'callExpr': {
      const t = k.value.target;
      if (t?.exprKind.case === 'identExpr' && !variables.has(t.exprKind.value.name)) {
        const full = `${t.exprKind.value.name}.${k.value.function}`;
        if (kubernetesEnv.funcs.find(full)) { k.value.function = full; k.value.target = undefined; }
      }
      qualifiedCalls(k.value.target, variables);
      k.value.args.forEach(a => qualifiedCalls(a, variables));
      return;
    }
    case 'listExpr': k.value.elements.forEach(x => qualifiedCalls(x, variables)); return;
    case 'structExpr': k.value.entries.forEach(en => { if (en.keyKind.case === 'mapKey') qualifiedCalls(en.keyKind.value, variables); qualifiedCalls(en.value, variables); }); return;
    case 'comprehensionExpr': {
      const c = k.value;
      [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].forEach(x => qualifiedCalls(x, variables));
      return;
    }
    default: return;
  }
}

/** every undeclared identifier and function, in source order */
function undeclared(parsed: Parsed, variables: ReadonlySet<string>): Array<{ id: bigint; name: string }> {
  const found: Array<{ id: bigint; name: string }> = [];
  const visit = (e: Expr | undefined, scope: ReadonlySet<string>): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr':
        if (!scope.has(k.value.name) && !variables.has(k.value.name) && !typeIdentifiers.has(k.value.name)) found.push({ id: e.id, name: k.value.name });
        return;
      case 'selectExpr': return visit(k.value.operand, scope);
      case 'callExpr': {
        const fn = k.value.function;
        const operator = /^[_@!]/.test(fn);
        if (!operator && !plannerFunctions.has(fn) && !kubernetesEnv.funcs.find(fn)) found.push({ id: e.id, name: fn });
        visit(k.value.target, scope);
        k.value.args.forEach(a => visit(a, scope));
        return;
      }
      case 'listExpr': k.value.elements.forEach(x => visit(x, scope)); return;
      case 'structExpr':
        if (k.value.messageName) found.push({ id: e.id, name: k.value.messageName });
        k.value.entries.forEach(en => { if (en.keyKind.case === 'mapKey') visit(en.keyKind.value, scope); visit(en.value, scope); }); return;
      case 'comprehensionExpr': {
        const c = k.value;
        visit(c.iterRange, scope);
        visit(c.accuInit, scope);
        const inner = new Set([...scope, c.accuVar, c.iterVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
        visit(c.loopCondition, inner);
        visit(c.loopStep, inner);
        visit(c.result, new Set([...scope, c.accuVar]));
        return;
      }
      default: return;
    }
  };
  visit(parsed.expr, new Set());
  return found;
}

/**
 * Compiles `expression` for an environment declaring `variables` (`object`, `params`, ...);
 * throws a CelCompileError whose message is what Kubernetes reports after "compilation failed: ".
 */
export interface CompileOptions {
  objectConstruction?: boolean;
  /** the environment to plan with (CRD rules plan with a metered copy of kubernetesEnv) */
  env?: CelEnv;
  /** a last rewrite of the checked expression before planning (CRD rules add cost ticks) */
  rewrite?: (e: Expr) => void;
  /** a type check after the declared-name check: the problems, each at an expression id */
  typeCheck?: (e: Expr) => ReadonlyArray<{ id: bigint; message: string; token?: string }>;
}

export function compileCel(expression: string, variables: Iterable<string>, opts: CompileOptions = {}): CompiledExpression {
  let parsed: Parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    throw new CelCompileError(syntaxError(expression, err as Error));
  }
  const declared = new Set(variables);
  qualifiedCalls(parsed.expr, declared);
  if (opts.objectConstruction) {
    let id = 1n << 40n; // ids above any the parser gave
    objectsAsMaps(parsed.expr, () => ++id);
  }
  const missing = undeclared(parsed, declared);
  if (missing.length) {
    const positions = parsed.sourceInfo?.positions ?? {};
    throw new CelCompileError(missing.map(m => located(expression, Number(positions[String(m.id)] ?? 0), `undeclared reference to '${m.name}' (in container '')`)).join('\n'));
  }
  const problems = opts.typeCheck && parsed.expr ? opts.typeCheck(parsed.expr) : [];
  if (problems.length) {
    const positions = parsed.sourceInfo?.positions ?? {};
    // the parser places a call at its name or after its left operand; cel-go at its operator or '('
    const at = (m: { id: bigint; token?: string }) => {
      const offset = Number(positions[String(m.id)] ?? 0);
      const found = m.token ? expression.indexOf(m.token, offset) : -1;
      return found >= 0 ? found : offset;
    };
    throw new CelCompileError(problems.map(m => located(expression, at(m), m.message)).join('\n'));
  }
  if (opts.rewrite && parsed.expr) opts.rewrite(parsed.expr);
  const program = plan(opts.env ?? kubernetesEnv, parsed);
  return {
    expression,
    run(bindings) {
      try {
        return program(bindings as never);
      } catch (err) {
        // the planner's own failures (an unsupported construct) are errors of this evaluation
        return err as never;
      }
    },
  };
}

export { isCelError };
