// Kubernetes protobuf to the JSON object form, driven by the generated message table. Types
// whose JSON form is not their message (times, durations, quantities, int-or-string, raw
// extensions, managed fields) are mapped as Kubernetes' JSON encoding maps them.

import { createRequire } from 'node:module';
import { Reader } from './wire.ts';

type FieldRow = [string, number, string, number, string?];
const table = createRequire(import.meta.url)('../../schema/generated/proto-messages.json') as Record<string, FieldRow[]>;
const byNumber = new Map<string, Map<number, FieldRow>>();

function fieldsOf(message: string): Map<number, FieldRow> {
  let m = byNumber.get(message);
  if (!m) {
    const rows = table[message];
    if (!rows) throw new Error(`no protobuf message ${message}`);
    m = new Map(rows.map(r => [r[1], r]));
    byNumber.set(message, m);
  }
  return m;
}

export function hasMessage(name: string): boolean {
  return Object.hasOwn(table, name);
}

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1.';
const text = new TextDecoder();

function rfc3339(seconds: number, nanos: number, micro: boolean): string | null {
  if (seconds === 0 && nanos === 0) return null;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** nanoseconds as a Go duration string: 1h2m3.5s, 300ms, 0s */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let n = Math.abs(ns);
  let out: string;
  if (n < 1e9) {
    out = n < 1e3 ? `${n}ns` : n < 1e6 ? `${n / 1e3}µs` : `${n / 1e6}ms`;
  } else {
    const h = Math.floor(n / 3.6e12); n -= h * 3.6e12;
    const m = Math.floor(n / 6e10); n -= m * 6e10;
    const s = n / 1e9;
    out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
  }
  return neg ? `-${out}` : out;
}

/** special messages: decoded straight to their JSON value */
const special: Record<string, (r: Reader) => unknown> = {
  [`${meta}Time`]: r => { const t = plain(r, `${meta}Time`); return rfc3339(Number(t.seconds ?? 0), Number(t.nanos ?? 0), false); },
  [`${meta}MicroTime`]: r => { const t = plain(r, `${meta}MicroTime`); return rfc3339(Number(t.seconds ?? 0), Number(t.nanos ?? 0), true); },
  [`${meta}Duration`]: r => goDuration(Number(plain(r, `${meta}Duration`).duration ?? 0)),
  [`${meta}FieldsV1`]: r => { const raw = plain(r, `${meta}FieldsV1`).Raw as string | undefined; return raw ? JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) : {}; },
  'k8s.io.apimachinery.pkg.api.resource.Quantity': r => plain(r, 'k8s.io.apimachinery.pkg.api.resource.Quantity').string ?? '0',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': r => {
    const v = plain(r, 'k8s.io.apimachinery.pkg.util.intstr.IntOrString');
    return Number(v.type ?? 0) === 1 ? (v.strVal ?? '') : Number(v.intVal ?? 0);
  },
  'k8s.io.apimachinery.pkg.runtime.RawExtension': r => {
    const raw = plain(r, 'k8s.io.apimachinery.pkg.runtime.RawExtension').raw as string | undefined;
    return raw ? JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) : null;
  },
};

// messages that are a list in JSON (a single repeated `items` field)
const listLike = new Set([`${meta}Verbs`, 'k8s.io.api.authentication.v1.ExtraValue', 'k8s.io.api.authorization.v1.ExtraValue', 'k8s.io.api.certificates.v1.ExtraValue']);

function scalar(r: Reader, type: string, wire: number): unknown {
  switch (type) {
    case 'string': return text.decode(r.bytes());
    case 'bytes': return Buffer.from(r.bytes()).toString('base64');
    case 'bool': return r.varint() !== 0;
    case 'int32': case 'int64': return r.int64();
    case 'uint32': case 'uint64': return r.varint();
    case 'double': return r.fixed64();
    case 'float': return r.fixed32();
    default: r.skip(wire); return undefined;
  }
}

function value(r: Reader, type: string, wire: number): unknown {
  if (wire === 2 && type !== 'string' && type !== 'bytes') {
    const sub = r.bytes();
    return decodeMessage(sub, type);
  }
  return scalar(r, type, wire);
}

/** a message as a plain field map, without the special JSON forms (used by them) */
function plain(r: Reader, message: string): Record<string, unknown> {
  const fields = fieldsOf(message);
  const out: Record<string, unknown> = {};
  while (!r.done()) {
    const tag = r.varint();
    const f = fields.get(Math.floor(tag / 8));
    const wire = tag & 7;
    if (!f) { r.skip(wire); continue; }
    const [name, , type, repeated, mapValue] = f;
    if (type === 'map') {
      const entry = new Reader(r.bytes());
      let k = '', v: unknown;
      while (!entry.done()) {
        const t = entry.varint();
        if (t >>> 3 === 1) k = text.decode(entry.bytes());
        else if (t >>> 3 === 2) v = value(entry, mapValue!, t & 7);
        else entry.skip(t & 7);
      }
      const map = (out[name] ??= {}) as Record<string, unknown>;
      map[k] = v ?? (mapValue === 'string' ? '' : null);
      continue;
    }
    if (repeated) {
      const list = (out[name] ??= []) as unknown[];
      // packed scalars arrive as one length-delimited run
      if (wire === 2 && type !== 'string' && type !== 'bytes' && !type.includes('.')) {
        const run = r.bytes();
        const sub = new Reader(run);
        while (!sub.done()) list.push(scalar(sub, type, 0));
      } else {
        list.push(value(r, type, wire));
      }
      continue;
    }
    out[name] = value(r, type, wire);
  }
  return out;
}

/** one message (bytes) as its JSON value */
export function decodeMessage(bytes: Uint8Array, message: string): unknown {
  const r = new Reader(bytes);
  const sp = special[message];
  if (sp) return sp(r);
  const obj = plain(r, message);
  if (listLike.has(message)) return obj.items ?? [];
  // Go's JSON encoding leaves out empty strings and unset times; the wire carries them
  for (const [k, v] of Object.entries(obj)) if (v === '' || v === null) delete obj[k];
  return obj;
}
