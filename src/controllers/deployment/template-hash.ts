// The pod-template-hash label: a ReplicaSet's name and its pods' label say which template they
// run. Kubernetes hashes the Go structure of the template (FNV-32a over a deep printout of the
// Go types, then the collision count), which depends on Go's type names and field order; orch
// hashes the template's JSON with sorted keys the same way (FNV-32a, collision count appended as
// Kubernetes appends it, the decimal sum spelled with Kubernetes' safe alphabet), so the value
// has Kubernetes' form and stability but not its exact digits.

import { deepClone, jsonEqual } from '../../api/object.ts';
import type { CoreV1PodTemplateSpec } from '../../schema/generated/types.ts';
import { canonicalJson, fnv32a, safeEncode } from '../object-hash.ts';

export const templateHashLabel = 'pod-template-hash';

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
