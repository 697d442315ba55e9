// Which old value a new one is compared with (oldSelf, ratcheting), as Kubernetes correlates:
// object properties and map entries by name, items of a `x-kubernetes-list-type: map` list by
// their list-map keys. Items of other lists have no old value, so transition rules below them
// never run (and CRD validation forbids oldSelf there).

import type { RuleSchema } from './schema.ts';

/** the item of `olds` with the same list-map keys as `item`, for map lists */
export function correlatedItem(s: RuleSchema, olds: unknown[] | undefined, item: unknown): unknown {
  const keys = s['x-kubernetes-list-map-keys'];
  if (!olds || s['x-kubernetes-list-type'] !== 'map' || !keys?.length) return undefined;
  if (!item || typeof item !== 'object') return undefined;
  const n = item as Record<string, unknown>;
  return olds.find(o => o && typeof o === 'object' && keys.every(k => deepEqual((o as Record<string, unknown>)[k], n[k])));
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a).filter(k => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter(k => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every(k => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
