// Image references for the simulated runtime: parsing is shared (api/image-ref.ts); ids and
// digests of simulated images are derived from their names, so that the same name always looks
// the same.

import { createHash } from 'node:crypto';

export { formatImageRef, normalizeImageRef, parseImageRef, type ImageRef } from '../api/image-ref.ts';

/** a stable sha256 digest standing for some part of a simulated image */
export function simulatedDigest(kind: 'config' | 'manifest', name: string): string {
  return `sha256:${createHash('sha256').update(`orch-runtime-sim ${kind} ${name}`).digest('hex')}`;
}
