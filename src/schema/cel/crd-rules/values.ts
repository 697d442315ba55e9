// A JSON value as CEL sees it at a schema node, typed from the schema as apiextensions-apiserver
// types it: `integer` is int, `number` is double even when whole, int-or-string is either,
// declared properties are fields (names escaped for CEL), additionalProperties makes a map,
// preserve-unknown-fields without properties is untyped, and a resource root (the object or an
// embedded resource) shows apiVersion, kind and only metadata.name and metadata.generateName.

import type { CelInput } from '@bufbuild/cel';
import { toCelInput } from '../values.ts';
import { mapValues, type RuleSchema } from './schema.ts';

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const accessible = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** the CEL field name of a property, or undefined when CEL cannot name it */
export function escapeProperty(name: string): string | undefined {
  if (reserved.has(name)) return `__${name}__`;
  if (!accessible.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/** the properties CEL sees of a resource root, declared or not */
function withTypeAndObjectMeta(s: RuleSchema): RuleSchema {
  const meta: RuleSchema = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  return { ...s, type: 'object', properties: { ...s.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: meta } };
}

export function isResourceRoot(s: RuleSchema, root: boolean): boolean {
  return root || s['x-kubernetes-embedded-resource'] === true;
}

/** `v` (JSON) typed by schema `s`; `root` for the object itself */
export function toTypedCel(v: unknown, s: RuleSchema | undefined, root = false): CelInput {
  if (v === null || v === undefined) return null;
  if (!s) return toCelInput(v);
  if (s['x-kubernetes-int-or-string']) return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : toCelInput(v);
  switch (s.type) {
    case 'integer': return typeof v === 'number' ? BigInt(Math.trunc(v)) : toCelInput(v);
    case 'number': return typeof v === 'number' ? v : toCelInput(v);
    case 'string': case 'boolean': return toCelInput(v);
    case 'array': return Array.isArray(v) ? v.map(x => toTypedCel(x, s.items)) : toCelInput(v);
    default: break;
  }
  if (typeof v !== 'object' || Array.isArray(v)) return toCelInput(v);
  const obj = v as Record<string, unknown>;
  const typed = isResourceRoot(s, root) ? withTypeAndObjectMeta(s) : s;
  const values = mapValues(typed);
  if (values) {
    const m = new Map<string, CelInput>();
    for (const [k, x] of Object.entries(obj)) if (x !== undefined) m.set(k, toTypedCel(x, values));
    return m;
  }
  if (!typed.properties) return toCelInput(v);
  const m = new Map<string, CelInput>();
  for (const [k, x] of Object.entries(obj)) {
    const sub = typed.properties[k];
    const name = escapeProperty(k);
    if (!sub || x === undefined || name === undefined) continue;
    m.set(name, toTypedCel(x, sub));
  }
  return m;
}
