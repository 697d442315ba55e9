// cel-go's sets extension, which Kubernetes enables: sets.contains(a, b) (every element of b is
// in a), sets.equivalent(a, b) (the same elements, ignoring order and repeats) and
// sets.intersects(a, b), with CEL's equality (1 == 1.0).

import { CelScalar, celEnv, celFunc, isCelError, listType, parse, plan, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';

const LIST = listType(CelScalar.DYN);
const inProgram = plan(celEnv(), parse('x in l'));

function has(list: CelList, x: CelValue): boolean {
  const r = inProgram({ x, l: list } as never);
  if (isCelError(r)) throw new Error(r.message);
  return r === true;
}

const contains = (a: CelList, b: CelList) => [...b].every(x => has(a, x));

export const setsLibrary: CelFunc[] = [
  celFunc('sets.contains', [LIST, LIST], CelScalar.BOOL, contains),
  celFunc('sets.equivalent', [LIST, LIST], CelScalar.BOOL, (a: CelList, b: CelList) => contains(a, b) && contains(b, a)),
  celFunc('sets.intersects', [LIST, LIST], CelScalar.BOOL, (a: CelList, b: CelList) => [...b].some(x => has(a, x))),
];
