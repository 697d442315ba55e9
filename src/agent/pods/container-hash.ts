// A short digest of a container's spec, recorded on the runtime container at creation. When the
// pod's container spec changes (a new image through `kubectl set image`), the running container
// no longer matches and is replaced.

import { createHash } from 'node:crypto';
import type { Container } from './types.ts';

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map(k => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

export function containerHash(c: Container): string {
  // resources can change in place; they are not part of what makes a container different
  const { resources: _resources, ...rest } = c;
  return createHash('sha256').update(stable(rest)).digest('hex').slice(0, 8);
}
