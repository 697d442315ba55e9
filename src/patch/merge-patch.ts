// JSON merge patch (RFC 7386): objects merge key by key, null deletes, anything else replaces.

import { deepClone, isObject } from '../api/object.ts';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return deepClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
