// The pod-template-hash label: a ReplicaSet's name and its pods' label say which template they
// run. Kubernetes hashes the Go structure of the template (FNV-32a over a deep printout of the
// Go types, then the collision count), which depends on Go's type names and field order; orch
// hashes the template's JSON with sorted keys the same way (FNV-32a, collision count appended as
// Kubernetes appends it, the decimal sum spelled with Kubernetes' safe alphabet), so the value
// has Kubernetes' form and stability but not its exact digits.

import { deepClone, jsonEqual } from '../../api/object.ts';
import type { CoreV1PodTemplateSpec } from '../../schema/generated/types.ts';

export const templateHashLabel = 'pod-template-hash';

/** the characters Kubernetes' rand.SafeEncodeString uses (no vowels, no 0/1/3) */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter(k => o[k] !== undefined).sort().map(k => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function fnv32a(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function safeEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

export function computeTemplateHash(template: CoreV1PodTemplateSpec | undefined, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJson(template ?? {}), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(collisionCount >>> 0, 0);
    h = fnv32a(b, h);
  }
  return safeEncode(String(h));
}

function withoutHash(t: CoreV1PodTemplateSpec | undefined): CoreV1PodTemplateSpec {
  const c = deepClone(t ?? {});
  if (c.metadata?.labels) {
    delete c.metadata.labels[templateHashLabel];
    if (!Object.keys(c.metadata.labels).length) delete c.metadata.labels;
  }
  return c;
}

/** two templates equal but for the hash label (a ReplicaSet's template against its Deployment's) */
export function equalIgnoreHash(a: CoreV1PodTemplateSpec | undefined, b: CoreV1PodTemplateSpec | undefined): boolean {
  return jsonEqual(withoutHash(a), withoutHash(b));
}

/** the template with the hash label added (for a new ReplicaSet), or removed (for a rollback) */
export function templateWithHash(t: CoreV1PodTemplateSpec | undefined, hash: string): CoreV1PodTemplateSpec {
  const c = deepClone(t ?? {});
  c.metadata = { ...c.metadata, labels: { ...c.metadata?.labels, [templateHashLabel]: hash } };
  return c;
}
