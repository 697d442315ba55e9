// A JSON value as CEL sees it at a schema node, typed from the schema as apiextensions-apiserver
// types it: `integer` is int, `number` is double even when whole, int-or-string is either,
// declared properties are fields (names escaped for CEL), additionalProperties makes a map,
// preserve-unknown-fields without properties is untyped, a resource root (the object or an
// embedded resource) shows apiVersion, kind and only metadata.name and metadata.generateName, and
// strings of format date-time and date are timestamps, duration durations, byte bytes.

import type { CelInput } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { DurationSchema, timestampFromDate } from '@bufbuild/protobuf/wkt';
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

const unitNanos: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** Go's time.ParseDuration ("1h30m", "-1.5s"), in nanoseconds */
export function parseGoDuration(d: string): bigint | undefined {
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(d);
  if (!m) return d === '0' ? 0n : undefined;
  let total = 0n;
  for (const part of d.slice(m[1]!.length).matchAll(/(\d*)(?:\.(\d*))?(ns|us|µs|ms|s|m|h)/g)) {
    const unit = unitNanos[part[3]!]!;
    const frac = part[2] ?? '';
    total += BigInt(part[1] || '0') * unit + (frac ? (BigInt(frac) * unit) / 10n ** BigInt(frac.length) : 0n);
  }
  return m[1] === '-' ? -total : total;
}

/** a string as its format types it, or the string when it does not parse (schema validation reports that) */
function formatted(v: string, format: string | undefined): CelInput {
  switch (format) {
    case 'date-time': case 'date': {
      const ok = format === 'date' ? /^\d{4}-\d{2}-\d{2}$/.test(v) : /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}/.test(v);
      const t = new Date(format === 'date' ? `${v}T00:00:00Z` : v);
      return ok && !Number.isNaN(t.getTime()) ? timestampFromDate(t) as never : v;
    }
    case 'duration': {
      const n = parseGoDuration(v);
      return n === undefined ? v : create(DurationSchema, { seconds: n / 1_000_000_000n, nanos: Number(n % 1_000_000_000n) }) as never;
    }
    case 'byte': return /^[A-Za-z0-9+/]*={0,2}$/.test(v) ? new Uint8Array(Buffer.from(v, 'base64')) : v;
    default: return v;
  }
}

/** the properties CEL sees of a resource root, declared or not */
export function withTypeAndObjectMeta(s: RuleSchema): RuleSchema {
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
    case 'string': return typeof v === 'string' ? formatted(v, s.format) : toCelInput(v);
    case 'boolean': return toCelInput(v);
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
