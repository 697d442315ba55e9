// The opaque `continue` token of a paged list: the snapshot revision and the key to resume
// after. Kubernetes clients treat it as opaque; its shape mirrors the upstream one.

import { badRequest } from '../api/status.ts';

export interface ContinuePoint {
  revision: number;
  /** the first key of the next page */
  start: string;
}

export function encodeContinue(p: ContinuePoint): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: p.revision, start: p.start })).toString('base64url');
}

export function decodeContinue(token: string): ContinuePoint {
  try {
    const raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (raw?.v !== 'meta.k8s.io/v1' || typeof raw.rv !== 'number' || typeof raw.start !== 'string' || raw.rv <= 0) throw new Error('bad');
    return { revision: raw.rv, start: raw.start };
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}
