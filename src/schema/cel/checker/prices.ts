// What calls cost by what they read, for the estimator (cost.ts): Kubernetes' library prices
// first (library.CostEstimator: lists, strings, regex, URLs, quantities; cel-go's sets), then
// cel-go's own by overload (string and list concatenation, comparisons, contains, matches, in);
// undefined where a call costs 1.

import type { CelExpr } from '../compile.ts';
import { add, factor, fixed, mul, sat, union, unknown, regexFactor, traversal, type Estimate } from './estimate.ts';
import type { CelType } from './types.ts';

/** what the estimator knows of the expressions a call reads */
export interface Sizer {
  size(e: CelExpr | undefined): Estimate;
  typeOf(e: CelExpr): CelType | undefined;
  /** the size of a string list's elements, undefined for other lists */
  elemString(list: CelExpr): Estimate | undefined;
  entryOf(e: CelExpr): Estimate | undefined;
  setEntry(e: CelExpr, est: Estimate): void;
}

/** Kubernetes' library prices first, then cel-go's by overload; undefined: 1 */
export function price(z: Sizer, e: CelExpr, fn: string, ids: readonly string[], target: CelExpr | undefined, args: readonly CelExpr[]): { cost: Estimate; result?: Estimate } | undefined {
  const { size, typeOf, elemString, entryOf } = z;
  const a0 = args[0], a1 = args[1];
  switch (fn) {
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf':
      if (!target) break;
      if (typeOf(target)?.kind === 'list') {
        const el = elemString(target);
        return { cost: mul(size(target), el ? add(fixed(1), factor(el, traversal)) : fixed(1)) };
      }
      return { cost: factor(size(target), traversal) };
    case 'url': case 'jsonpatch.escapeKey':
      if (a0) { const sz = size(a0); return { cost: factor(sz, traversal), result: sz }; }
      break;
    case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
      if (target) { const sz = size(target); return { cost: factor(sz, traversal), result: sz }; }
      break;
    case 'replace':
      // the result can grow: price the traversal, leave its size unknown (errs high)
      if (target) return { cost: factor(size(target), 2 * traversal) };
      break;
    case 'split':
      if (target) return { cost: factor(size(target), 2 * traversal), result: { min: 0, max: size(target).max } };
      break;
    case 'join':
      if (target) {
        const list = size(target);
        let sz = mul(list, elemString(target) ?? unknown);
        if (a0) sz = add(sz, mul(size(a0), { min: Math.max(0, list.min - 1), max: Math.max(0, list.max - 1) }));
        return { cost: factor(sz, traversal), result: sz };
      }
      break;
    case 'find': case 'findAll':
      if (target && a0) return { cost: mul(factor(add(size(target), fixed(1)), traversal), factor(size(a0), regexFactor)), result: { min: 0, max: size(target).max } };
      break;
    case 'sign': case 'asInteger': case 'isInteger': case 'asApproximateFloat': case 'isGreaterThan': case 'isLessThan': case 'compareTo': case 'add': case 'sub':
    case 'getScheme': case 'getHostname': case 'getHost': case 'getPort': case 'getEscapedPath': case 'getQuery':
      return { cost: fixed(1) };
    case 'sets.contains': case 'sets.equivalent': case 'sets.intersects':
      // cel-go's sets library: every element of one list compared with every element of the other
      if (a0 && a1) return { cost: add(factor(mul(size(a0), size(a1)), fn === 'sets.equivalent' ? 2 : 1), fixed(1)) };
      break;
    default: break;
  }
  for (const id of ids) {
    switch (id) {
      case 'string_format': if (target) return { cost: factor(size(target), traversal) }; break;
      case 'strings_quote': if (a0) { const sz = size(a0); return { cost: factor(sz, traversal), result: { min: sz.min + 2, max: sat(sz.max * 2 + 2) } }; } break;
      case 'string_to_bytes': if (a0) { const sz = size(a0); return { cost: factor(sz, traversal), result: { min: sz.min, max: sat(sz.max * 4) } }; } break;
      case 'bytes_to_string': if (a0) { const sz = size(a0); return { cost: factor(sz, traversal), result: { min: Math.floor(sz.min / 4), max: sz.max } }; } break;
      case 'starts_with_string': case 'ends_with_string': if (a0) return { cost: factor(size(a0), traversal) }; break;
      case 'in_list': if (a1) return { cost: size(a1) }; break;
      case 'matches_string': if (target && a0) return { cost: mul(factor(add(size(target), fixed(1)), traversal), factor(size(a0), regexFactor)) }; break;
      case 'matches': if (a0 && a1) return { cost: mul(factor(add(size(a0), fixed(1)), traversal), factor(size(a1), regexFactor)) }; break;
      case 'contains_string': if (target && a0) return { cost: mul(factor(size(target), traversal), factor(size(a0), traversal)) }; break;
      case 'add_string': case 'add_bytes': case 'add_list': {
        if (!a0 || !a1) break;
        const result = add(size(a0), size(a1));
        const l = entryOf(a0), r = entryOf(a1);
        if (l && r) z.setEntry(e, union(l, r));
        return { cost: id === 'add_list' ? fixed(1) : factor(result, traversal), result };
      }
      case 'equals': case 'not_equals': case '_<__string': case '_<=__string': case '_>__string': case '_>=__string':
      case '_<__bytes': case '_<=__bytes': case '_>__bytes': case '_>=__bytes': {
        if (!a0 || !a1) break;
        if ((id === 'equals' || id === 'not_equals') && typeOf(a0)?.kind === 'opaque') return { cost: fixed(1) };
        const smallest = Math.min(size(a0).max, size(a1).max);
        return { cost: factor({ min: smallest > 0 ? 1 : 0, max: smallest }, traversal) };
      }
      default: break;
    }
  }
  return undefined;
}
