// Kubernetes' CEL list library: isSorted, sum, min, max, indexOf, lastIndexOf. Comparisons and
// equality go through CEL's own `<` and `==` (two tiny programs planned once), so mixed or
// unorderable elements fail with CEL's "no matching overload" rather than JavaScript's ordering.

import { CelScalar, celEnv, celMethod, isCelError, listType, parse, plan, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';

const { BOOL, INT, DYN } = CelScalar;
const LIST = listType(DYN);
const bare = celEnv();
const lessProgram = plan(bare, parse('a < b'));
const equalProgram = plan(bare, parse('a == b'));
const addProgram = plan(bare, parse('a + b'));

function run(program: typeof lessProgram, a: CelValue, b: CelValue): CelValue {
  const r = program({ a, b } as never);
  if (isCelError(r)) throw new Error(r.message);
  return r;
}

const less = (a: CelValue, b: CelValue) => run(lessProgram, a, b) === true;
const equal = (a: CelValue, b: CelValue) => run(equalProgram, a, b) === true;

function elements(list: CelList): CelValue[] {
  return [...list];
}

/** Kubernetes only offers these on lists of comparable (or summable) elements */
function checkSummable(v: CelValue): void {
  if (typeof v !== 'bigint' && typeof v !== 'number' && !(typeof v === 'object' && v !== null && 'value' in v)) {
    throw new Error(`no such overload: sum on list of ${typeof v === 'string' ? 'string' : typeof v}`);
  }
}

function extreme(list: CelList, name: 'min' | 'max'): CelValue {
  const xs = elements(list);
  if (!xs.length) throw new Error(`${name} called on empty list`);
  let best: CelValue = xs[0]!;
  for (const x of xs.slice(1)) if (name === 'min' ? less(x, best) : less(best, x)) best = x;
  return best;
}

export const listLibrary: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    const xs = elements(this);
    for (let i = 1; i < xs.length; i++) if (less(xs[i]!, xs[i - 1]!)) return false;
    // a list of one element of an unorderable type is still refused, as the typed overload would be
    if (xs.length === 1) less(xs[0]!, xs[0]!);
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    const xs = elements(this);
    if (!xs.length) return 0n;
    xs.forEach(checkSummable);
    return xs.slice(1).reduce((acc, x) => run(addProgram, acc, x), xs[0]!) as never;
  }),
  celMethod('min', LIST, [], DYN, function () { return extreme(this, 'min') as never; }),
  celMethod('max', LIST, [], DYN, function () { return extreme(this, 'max') as never; }),
  celMethod('indexOf', LIST, [DYN], INT, function (v: CelValue) {
    const xs = elements(this);
    for (let i = 0; i < xs.length; i++) if (equal(xs[i]!, v)) return BigInt(i);
    return -1n;
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (v: CelValue) {
    const xs = elements(this);
    for (let i = xs.length - 1; i >= 0; i--) if (equal(xs[i]!, v)) return BigInt(i);
    return -1n;
  }),
];
