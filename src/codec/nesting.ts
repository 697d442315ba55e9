// How deeply a request body may nest objects and arrays. Go's decoders stop at 10,000 levels
// (json-scan.ts has that limit and its message). Code here walks values recursively (copies,
// patches, YAML and JSON output), and V8's stack runs out between about 600 levels (YAML output)
// and 4,500 (JSON.stringify); so bodies are held to a depth that every path can take, far beyond
// any real object, and refused past it before anything walks them.

import { badRequest, type StatusError } from '../api/status.ts';

export const maxBodyNesting = 500;

export function nestedTooDeeply(): StatusError {
  return badRequest(`the request body nests objects and arrays more than ${maxBodyNesting} levels deep`);
}

/** whether a decoded value nests deeper than `maxBodyNesting` (a loop: the value may be very deep) */
export function nestsTooDeeply(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop(), depth = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxBodyNesting) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) {
      if (typeof c === 'object' && c !== null) { values.push(c); depths.push(depth + 1); }
    }
  }
  return false;
}
