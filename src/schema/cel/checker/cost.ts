// The worst-case cost of a checked expression, estimated as cel-go's checker estimates it
// (checker.Cost) with Kubernetes' library estimator in front: an identifier or a field costs 1,
// a call 1 plus its arguments unless priced by what it reads (string and list sizes, a tenth a
// character), `&&`/`||`/`?:` their arguments, a comprehension its range's size times one
// iteration. Sizes come from literals, from what calls make, and for values reached from a
// declared variable (self, oldSelf, their fields, items and iteration variables) from the
// type's most elements. Where orch cannot know cel-go's figure it errs high, never low.

import type { CelExpr } from '../compile.ts';
import type { Checked } from './check.ts';
import { maxElementsOf, type CelType } from './types.ts';
import { add, costCeiling, fixed, mul, union, unknown, type Estimate } from './estimate.ts';
import { price, type Sizer } from './prices.ts';

export { costCeiling, type Estimate };

interface Local { rooted: boolean; size?: Estimate; entry?: Estimate }

/**
 * `rootSize`: the most elements of the declared variables' value (self). As Kubernetes' size
 * estimator walks every path from self whatever its first name, any identifier that is not a
 * macro's variable is sized as self (`int` in `type(x) == int` too); a field of a map is unsized.
 */
export function estimateCost(root: CelExpr, checked: Checked, rootSize: number): Estimate {
  const sizes = new Map<bigint, Estimate>();
  const entries = new Map<bigint, Estimate>();
  const rooted = new Set<bigint>();
  const locals = new Map<string, Local[]>();
  const typeOf = (e: CelExpr): CelType | undefined => checked.types.get(e.id);
  const local = (name: string) => locals.get(name)?.at(-1);
  const push = (name: string, l: Local) => { const s = locals.get(name); if (s) s.push(l); else locals.set(name, [l]); };
  const pop = (name: string) => locals.get(name)?.pop();

  const sizeOf = (e: CelExpr): Estimate | undefined => {
    const known = sizes.get(e.id);
    if (known) return known;
    const k = e.exprKind;
    if (k.case === 'constExpr') {
      const c = k.value.constantKind;
      if (c.case === 'stringValue') return fixed([...c.value].length);
      if (c.case === 'bytesValue') return fixed(c.value.length);
      return fixed(1);
    }
    if (k.case === 'listExpr') return fixed(k.value.elements.length);
    if (k.case === 'structExpr' && !k.value.messageName) return fixed(k.value.entries.length);
    const t = typeOf(e);
    if (k.case === 'identExpr' && rooted.has(e.id) && !local(k.value.name)) return { min: 0, max: rootSize };
    if (rooted.has(e.id)) return { min: 0, max: (t && maxElementsOf(t)) ?? 0 };
    if (t && ['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(t.kind)) return fixed(1);
    if (k.case === 'identExpr') return local(k.value.name)?.size;
    return undefined;
  };
  const size = (e: CelExpr | undefined) => (e && sizeOf(e)) ?? unknown;
  const entryOf = (e: CelExpr): Estimate | undefined => entries.get(e.id) ?? (e.exprKind.case === 'identExpr' ? local(e.exprKind.value.name)?.entry : undefined);

  const elemString = (list: CelExpr): Estimate | undefined => {
    const t = typeOf(list);
    if (t?.kind !== 'list' || (t.elem.kind !== 'string' && t.elem.kind !== 'bytes')) return undefined;
    return rooted.has(list.id) ? { min: 0, max: maxElementsOf(t.elem) ?? 0 } : unknown;
  };

  const sizer: Sizer = { size, typeOf, elemString, entryOf, setEntry: (e, est) => entries.set(e.id, est) };
  const cost = (e: CelExpr | undefined): Estimate => {
    if (!e) return fixed(0);
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': return fixed(0);
      case 'identExpr': {
        const l = local(k.value.name);
        if (!l || l.rooted) rooted.add(e.id);
        return fixed(1);
      }
      case 'selectExpr': {
        const operand = k.value.operand;
        let sum = cost(operand);
        if (k.value.testOnly) return add(fixed(1), sum);
        const t = operand && typeOf(operand);
        if (t && (t.kind === 'map' || t.kind === 'object')) sum = add(sum, fixed(1));
        if (operand && rooted.has(operand.id) && t?.kind !== 'map') rooted.add(e.id);
        return sum;
      }
      case 'callExpr': {
        const { function: fn, target, args } = k.value;
        if (fn === 'dyn' && args[0]) {
          const c = cost(args[0]);
          const s = sizeOf(args[0]);
          if (s) sizes.set(e.id, s);
          if (rooted.has(args[0].id)) rooted.add(e.id);
          return add(fixed(1), c);
        }
        const argCosts = args.map(cost);
        const ids = checked.overloads.get(e.id) ?? [];
        if (!ids.length) return fixed(0);
        let sum = target ? cost(target) : fixed(0);
        const argSum = argCosts.reduce(add, fixed(0));
        let fnCost: Estimate;
        if (ids.includes('logical_and') || ids.includes('logical_or')) fnCost = { min: argCosts[0]!.min, max: add(argCosts[0]!, argCosts[1]!).max };
        else if (ids.includes('conditional')) {
          sizes.set(e.id, union(size(args[1]), size(args[2])));
          const l = entryOf(args[1]!), r = entryOf(args[2]!);
          if (l && r) entries.set(e.id, union(l, r));
          fnCost = add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!));
        } else {
          const priced = price(sizer, e, fn, ids, target, args);
          fnCost = add(priced?.cost ?? fixed(1), argSum);
          if (priced?.result) sizes.set(e.id, priced.result);
        }
        if ((ids.includes('index_list') || ids.includes('index_map')) && args[0]) {
          const entry = entryOf(args[0]);
          if (entry) sizes.set(e.id, entry);
          if (rooted.has(args[0].id)) rooted.add(e.id);
        }
        sum = add(sum, fnCost);
        return sum;
      }
      case 'listExpr': {
        let sum = fixed(0);
        let item: Estimate = { min: k.value.elements.length ? costCeiling : 0, max: 0 };
        for (const x of k.value.elements) { sum = add(sum, cost(x)); item = union(item, size(x)); }
        entries.set(e.id, item);
        return add(sum, fixed(10));
      }
      case 'structExpr': {
        let sum = fixed(0);
        let value: Estimate = { min: k.value.entries.length ? costCeiling : 0, max: 0 };
        for (const en of k.value.entries) {
          if (en.keyKind.case === 'mapKey') sum = add(sum, cost(en.keyKind.value));
          sum = add(sum, cost(en.value));
          value = union(value, size(en.value));
        }
        if (!k.value.messageName) entries.set(e.id, value);
        return add(sum, fixed(k.value.messageName ? 40 : 30));
      }
      case 'comprehensionExpr': {
        const c = k.value;
        let sum = add(cost(c.iterRange), cost(c.accuInit));
        push(c.accuVar, { rooted: false, size: c.accuInit && sizeOf(c.accuInit), entry: c.accuInit && entryOf(c.accuInit) });
        const range = c.iterRange;
        const fromRange = !!range && rooted.has(range.id);
        const rangeType = range && typeOf(range);
        const entry = range && entryOf(range);
        const isList = rangeType?.kind === 'list';
        if (c.iterVar2) {
          // a list's index has no schema size; a map's key is sized as the map's keys
          push(c.iterVar, { rooted: fromRange && !isList });
          push(c.iterVar2, { rooted: fromRange, size: entry });
        } else {
          push(c.iterVar, { rooted: fromRange, size: isList ? entry : undefined });
        }
        const loop = cost(c.loopCondition);
        const step = cost(c.loopStep);
        pop(c.iterVar);
        if (c.iterVar2) pop(c.iterVar2);
        sum = add(sum, cost(c.result));
        pop(c.accuVar);
        const count = size(range);
        sum = add(sum, mul(count, add(step, loop)));
        const init = c.accuInit?.exprKind.case;
        if (init === 'constExpr' && c.accuInit) { const s = sizeOf(c.accuInit); if (s) sizes.set(e.id, s); }
        else if (init === 'listExpr' || init === 'structExpr') {
          sizes.set(e.id, count);
          const stepEntry = c.loopStep && entryOf(c.loopStep);
          if (stepEntry) entries.set(e.id, stepEntry);
        }
        return sum;
      }
      default: return fixed(0);
    }
  };
  return cost(root);
}
