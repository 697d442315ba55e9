// Which cache a key or range belongs to. The cache is kept per resource: every object of one
// group+resource lives under `/registry/<resource>[.<group>]/`, so that prefix is the unit that
// is listed, watched and snapshotted together. Keys outside /registry/ (tests, tools) use their
// first path segment, so the same cache logic serves them.

import { prefixEnd } from '../interface.ts';

const registryRoot = '/registry/';

/** the resource prefix a key (or a range start) falls under, or undefined when it has none */
export function resourcePrefixOf(key: string): string | undefined {
  const from = key.startsWith(registryRoot) ? registryRoot.length : key.startsWith('/') ? 1 : -1;
  if (from < 0) return undefined;
  const slash = key.indexOf('/', from);
  if (slash <= from) return undefined;
  return key.slice(0, slash + 1);
}

/** the resource prefix holding the whole range [start, end), or undefined when it spans more */
export function resourcePrefixOfRange(start: string, end: string): string | undefined {
  const prefix = resourcePrefixOf(start);
  if (prefix === undefined) return undefined;
  return end <= prefixEnd(prefix) ? prefix : undefined;
}

