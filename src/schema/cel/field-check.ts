// A partial type check of policy expressions against the schema of the kinds a policy matches,
// as kube-apiserver's type checking reports in a policy's status: every `object.a.b` (or
// `oldObject.…`) path is followed through the OpenAPI schema and a field the schema does not
// have is "undefined field 'b'" at its position, in cel-go's words. @bufbuild/cel has no type
// checker, so only field paths are checked, not overloads or result types.

import { parse } from '@bufbuild/cel';
import type { SchemaNode } from '../schema-walker.ts';

type Parsed = ReturnType<typeof parse>;
type Expr = NonNullable<Parsed['expr']>;

export interface FieldProblem { offset: number; message: string }

/** the schema node an expression denotes, when it is a path from a typed root */
function nodeOf(e: Expr, roots: ReadonlyMap<string, SchemaNode>, shadowed: ReadonlySet<string>, problems: FieldProblem[], positions: Record<string, number>): SchemaNode | undefined {
  const k = e.exprKind;
  if (k.case === 'identExpr') return shadowed.has(k.value.name) ? undefined : roots.get(k.value.name);
  if (k.case === 'selectExpr') {
    const parent = k.value.operand ? nodeOf(k.value.operand, roots, shadowed, problems, positions) : undefined;
    if (!parent) return undefined;
    if (parent.kind === 'map') return parent.elem;
    if (parent.kind !== 'struct') return undefined;
    const f = parent.fields?.get(k.value.field);
    if (!f) {
      if (!parent.preserveUnknown) problems.push({ offset: Number(positions[String(e.id)] ?? 0), message: `undefined field '${k.value.field}'` });
      return undefined;
    }
    return f.node;
  }
  if (k.case === 'callExpr' && k.value.function === '_[_]' && k.value.args[0]) {
    const parent = nodeOf(k.value.args[0], roots, shadowed, problems, positions);
    return parent && (parent.kind === 'list' || parent.kind === 'map') ? parent.elem : undefined;
  }
  return undefined;
}

/** every field an expression names that the roots' schemas lack */
export function undefinedFields(expression: string, roots: ReadonlyMap<string, SchemaNode>): FieldProblem[] {
  let parsed: Parsed;
  try { parsed = parse(expression); } catch { return []; }
  const positions = (parsed.sourceInfo?.positions ?? {}) as Record<string, number>;
  const problems: FieldProblem[] = [];
  const visit = (e: Expr | undefined, roots: ReadonlyMap<string, SchemaNode>, shadowed: ReadonlySet<string>): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'selectExpr': case 'identExpr':
        nodeOf(e, roots, shadowed, problems, positions);
        return;
      case 'callExpr':
        if (k.value.function === '_[_]') nodeOf(e, roots, shadowed, problems, positions);
        visit(k.value.target, roots, shadowed);
        k.value.args.forEach(a => visit(a, roots, shadowed));
        return;
      case 'listExpr': k.value.elements.forEach(x => visit(x, roots, shadowed)); return;
      case 'structExpr': k.value.entries.forEach(en => { if (en.keyKind.case === 'mapKey') visit(en.keyKind.value, roots, shadowed); visit(en.value, roots, shadowed); }); return;
      case 'comprehensionExpr': {
        const c = k.value;
        visit(c.iterRange, roots, shadowed);
        // a macro over a typed list binds its variable to the list's items
        const range = c.iterRange ? nodeOf(c.iterRange, roots, shadowed, [], positions) : undefined;
        const inner = new Set([...shadowed, c.iterVar, c.accuVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
        let innerRoots = roots;
        if (range?.kind === 'list' && range.elem) {
          innerRoots = new Map(roots);
          (innerRoots as Map<string, SchemaNode>).set(c.iterVar, range.elem);
          inner.delete(c.iterVar);
        }
        [c.accuInit, c.loopCondition, c.loopStep, c.result].forEach(x => visit(x, innerRoots, inner));
        return;
      }
      default: return;
    }
  };
  visit(parsed.expr, roots, new Set());
  // a path reported once even when `_[_]` and its operand both lead to it
  const seen = new Set<string>();
  return problems.filter(p => { const key = `${p.offset}:${p.message}`; if (seen.has(key)) return false; seen.add(key); return true; });
}

/** cel-go's rendering of one problem: `ERROR: <input>:line:col: message`, the line and a caret */
export function renderProblem(expression: string, p: FieldProblem): string {
  const before = expression.slice(0, p.offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = p.offset - lineStart;
  return `ERROR: <input>:${line}:${column + 1}: ${p.message}\n | ${expression.slice(lineStart).split('\n')[0]}\n | ${'.'.repeat(column)}^`;
}
