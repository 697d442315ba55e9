// Kubernetes' CEL regex library: `s.find(re)` (the first match, '' when none) and
// `s.findAll(re[, limit])`, on RE2 patterns read as schema/re2-pattern.ts reads them.

import { CelScalar, celMethod, listType, type CelFunc } from '@bufbuild/cel';
import { compileRe2 } from '../re2-pattern.ts';

const { STRING, INT } = CelScalar;

function findAll(s: string, pattern: string, limit: number): string[] {
  if (limit === 0) return [];
  const re = compileRe2(pattern);
  const out: string[] = [];
  for (const m of s.matchAll(re)) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

export const regexLibrary: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (pattern: string) {
    return findAll(this, pattern, 1)[0] ?? '';
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern: string) {
    return findAll(this, pattern, -1);
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern: string, limit: bigint) {
    return findAll(this, pattern, Number(limit));
  }),
];
