// cel-go's optional values as far as plain calls reach them: optional.of(x), optional.none(),
// optional.ofNonZeroValue(x), o.hasValue(), o.value(), o.orValue(x), o.or(o2). CRD rules with
// `optionalOldSelf` get oldSelf as one. @bufbuild/cel parses no `?.`/`[?]` syntax, so optional
// field selection is not available. The held value lives in a WeakMap keyed by the message
// (CEL values need not fit a protobuf field), so it goes away with the value.

import { CelScalar, celEnv, celFunc, celMethod, isCelList, isCelMap, parse, plan, type CelFunc, type CelInput, type CelValue } from '@bufbuild/cel';
import { OPTIONAL, descs, fieldsOf, make } from './types.ts';

const held = new WeakMap<object, CelValue>();

const identity = plan(celEnv(), parse('x'));

/** an optional holding input `v` (JSON-like, as bindings are), or none when `v` is undefined */
export function optionalOfInput(v: CelInput | undefined): never {
  return optionalOf(v === undefined ? undefined : identity({ x: v } as never) as CelValue);
}

/** an optional holding `v`, or none when `v` is undefined */
export function optionalOf(v: CelValue | undefined): never {
  const o = make(descs.optional, { present: v !== undefined });
  if (v !== undefined) held.set(o as object, v);
  return o;
}

function contentOf(o: unknown): CelValue | undefined {
  return held.get(fieldsOf<object>(o));
}

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  return false;
}

const { DYN, BOOL } = CelScalar;

export const optionalLibrary: CelFunc[] = [
  celFunc('optional.of', [DYN], OPTIONAL, (v: CelValue) => optionalOf(v)),
  celFunc('optional.none', [], OPTIONAL, () => optionalOf(undefined)),
  celFunc('optional.ofNonZeroValue', [DYN], OPTIONAL, (v: CelValue) => optionalOf(isZero(v) ? undefined : v)),
  celMethod('hasValue', OPTIONAL, [], BOOL, function () { return contentOf(this) !== undefined; }),
  celMethod('value', OPTIONAL, [], DYN, function () {
    const v = contentOf(this);
    if (v === undefined) throw new Error('optional.none() dereference');
    return v;
  }),
  celMethod('orValue', OPTIONAL, [DYN], DYN, function (d: CelValue) { return contentOf(this) ?? d; }),
  celMethod('or', OPTIONAL, [OPTIONAL], OPTIONAL, function (other) { return contentOf(this) !== undefined ? this : other; }),
];
