// The hash parts Kubernetes' controllers name things with (pod-template-hash, ControllerRevision
// names): FNV-32a, spelled in rand.SafeEncodeString's alphabet. orch hashes an object's JSON
// with sorted keys where Kubernetes hashes Go's printout of it, so the form and stability are
// Kubernetes' and the digits are not.

/** the characters Kubernetes' rand.SafeEncodeString uses (no vowels, no 0/1/3) */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with every object's keys sorted and undefined members left out */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter(k => o[k] !== undefined).sort().map(k => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

export function fnv32a(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

export function safeEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}
