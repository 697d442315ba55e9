// Strict decoding of one configuration document against the field table: unknown fields and
// values of the wrong type are errors naming the field, as the kubelet's strict decoder reports.

import { parseDuration } from '../../api/duration.ts';
import { agentConfigFields, type FieldKind } from './fields.ts';

export const configGroupVersion = 'kubelet.config.k8s.io/v1beta1';
export const configKind = 'KubeletConfiguration';

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function check(value: unknown, kind: FieldKind, path: string, errors: string[]): void {
  const want = (ok: boolean, goType: string) => { if (!ok) errors.push(`${path}: cannot unmarshal ${typeName(value)} into Go value of type ${goType}`); };
  if (value === null) return;
  if (typeof kind === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) return want(false, 'struct');
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const sub = kind.struct[k];
      if (!sub) errors.push(`unknown field "${path}.${k}"`);
      else check(v, sub, `${path}.${k}`, errors);
    }
    return;
  }
  switch (kind) {
    case 'string': return want(typeof value === 'string', 'string');
    case 'bool': return want(typeof value === 'boolean', 'bool');
    case 'int': return want(Number.isInteger(value), 'int32');
    case 'number': return want(typeof value === 'number', 'float64');
    case 'duration':
      if (typeof value !== 'string') return want(false, 'time.Duration');
      try { parseDuration(value); } catch { errors.push(`${path}: time: invalid duration ${JSON.stringify(value)}`); }
      return;
    case 'stringList': return want(Array.isArray(value) && value.every(x => typeof x === 'string'), '[]string');
    case 'list': return want(Array.isArray(value), 'slice');
    case 'stringMap': return want(isMap(value, x => typeof x === 'string'), 'map[string]string');
    case 'boolMap': return want(isMap(value, x => typeof x === 'boolean'), 'map[string]bool');
    case 'mapOfLists': return want(isMap(value, x => Array.isArray(x) && x.every(y => typeof y === 'string')), 'map[string][]string');
    case 'any': return;
  }
}

function isMap(v: unknown, each: (x: unknown) => boolean): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(each);
}

/** the problems with one document (empty: fine) */
export function decodeProblems(doc: unknown): string[] {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return ['the document is not a mapping'];
  const d = doc as Record<string, unknown>;
  const errors: string[] = [];
  if (d.apiVersion !== configGroupVersion || d.kind !== configKind) {
    errors.push(`no kind "${String(d.kind ?? '')}" is registered for version "${String(d.apiVersion ?? '')}" (want apiVersion ${configGroupVersion}, kind ${configKind})`);
  }
  for (const [k, v] of Object.entries(d)) {
    const kind = agentConfigFields[k];
    if (!kind) errors.push(`unknown field "${k}"`);
    else check(v, kind, k, errors);
  }
  return errors;
}
