// JSON objects as CEL sees them. Kubernetes types its objects from their schema, so an integer
// field is a CEL int: JSON numbers without a fraction become bigints here (a `number` field
// holding a whole value would be a double in Kubernetes; such fields are rare in built-in
// types). Results go back to JSON for variables that callers print and for audit annotations.

import { isCelList, isCelMap, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';

export function toCelInput(v: unknown): CelInput {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (Array.isArray(v)) return v.map(toCelInput);
  if (typeof v === 'object') {
    const m = new Map<string, CelInput>();
    for (const [k, x] of Object.entries(v)) if (x !== undefined) m.set(k, toCelInput(x));
    return m;
  }
  return null;
}

/** a CEL value as JSON-like data (ints as numbers when safe, else strings) */
export function fromCelValue(v: CelValue): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (isCelUint(v)) return Number(v.value);
  if (isCelList(v)) return [...v].map(fromCelValue);
  if (isCelMap(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[String(isCelUint(k) ? k.value : k)] = fromCelValue(x);
    return out;
  }
  return v;
}

/** CEL's name for the type of a result, as Kubernetes' messages print it */
export function celTypeName(v: CelValue): string {
  if (v === null) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof Uint8Array) return 'bytes';
  if (isCelUint(v)) return 'uint';
  if (isCelList(v)) return 'list';
  if (isCelMap(v)) return 'map';
  const typeName = (v as { desc?: { typeName?: string } }).desc?.typeName;
  return typeName ?? 'type';
}
