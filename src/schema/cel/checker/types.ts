// Static CEL types, for checking expressions before they run (@bufbuild/cel checks only
// identifiers): primitives, lists, maps, objects with declared fields (a CRD schema's objects),
// opaque types with parameters (optional_type(T), the Kubernetes library types), and type
// parameters of overload signatures. A type built from a schema carries the most elements its
// value can have (maxItems, maxProperties, maxLength, or what fits in a request), for the cost
// estimate. Names print as cel-go prints them in its errors.

export type Primitive = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration' | 'error';

export type CelType =
  | { kind: Primitive; maxElements?: number }
  | { kind: 'list'; elem: CelType; maxElements?: number }
  | { kind: 'map'; key: CelType; value: CelType; maxElements?: number }
  | { kind: 'object'; name: string; fields: ReadonlyMap<string, CelType> }
  | { kind: 'opaque'; name: string; params: readonly CelType[] }
  | { kind: 'type'; of?: CelType }
  /** a type parameter of a signature (A, B), or a free one (the elements of `[]`) */
  | { kind: 'param'; name: string };

const primitives = new Map<Primitive, CelType>();
export function prim(kind: Primitive): CelType {
  let t = primitives.get(kind);
  if (!t) primitives.set(kind, t = { kind });
  return t;
}

export const INT = prim('int'), UINT = prim('uint'), DOUBLE = prim('double'), BOOL = prim('bool'), STRING = prim('string');
export const BYTES = prim('bytes'), NULL = prim('null_type'), DYN = prim('dyn'), TIMESTAMP = prim('timestamp');
export const DURATION = prim('duration'), ERROR = prim('error');

export const listOf = (elem: CelType, maxElements?: number): CelType => ({ kind: 'list', elem, ...(maxElements !== undefined ? { maxElements } : {}) });
export const mapOf = (key: CelType, value: CelType, maxElements?: number): CelType => ({ kind: 'map', key, value, ...(maxElements !== undefined ? { maxElements } : {}) });
export const opaque = (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params });
export const optionalOf = (t: CelType): CelType => opaque('optional_type', t);
export const param = (name: string): CelType => ({ kind: 'param', name });

export const isDynOrError = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'error';

/** a type as cel-go's FormatCELType writes it */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'null_type': return 'null';
    case 'error': return '!error!';
    case 'list': return `list(${formatType(t.elem)})`;
    case 'map': return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'object': return t.name;
    case 'opaque': return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'type': return t.of ? `type(${formatType(t.of)})` : 'type';
    case 'param': return t.name;
    default: return t.kind;
  }
}

/** the size (string length, list or map entries) a schema-built value can reach, if bounded */
export function maxElementsOf(t: CelType): number | undefined {
  return 'maxElements' in t ? t.maxElements : undefined;
}
