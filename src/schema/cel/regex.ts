// Kubernetes' CEL regex library: `s.find(re)` (the first match, '' when none) and
// `s.findAll(re[, limit])`. Patterns are RE2: they are compiled with RE2JS first, so what RE2
// refuses (backreferences, lookaround) is refused in RE2's words; the match itself runs on a
// JavaScript RegExp, which agrees with RE2 on the syntax RE2 accepts once RE2's leading inline
// flags (`(?i)`, `(?s)`, `(?m)`) are turned into a modifier group.

import { CelScalar, celMethod, listType, type CelFunc } from '@bufbuild/cel';
import { RE2JS } from '@bufbuild/re2';

const { STRING, INT } = CelScalar;
const cache = new Map<string, RegExp>();

export function compileRe2(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  try {
    RE2JS.compile(pattern);
  } catch (err) {
    // RE2JS words its syntax errors as Go's regexp package does ("error parsing regexp: ...")
    const message = (err as Error).message;
    throw new Error(message.startsWith('error parsing regexp') ? message : `error parsing regexp: ${message}`);
  }
  let source = pattern;
  const flags = /^\(\?([ims]+)\)/.exec(source);
  if (flags) source = `(?${flags[1]}:${source.slice(flags[0].length)})`;
  let re: RegExp;
  try {
    re = new RegExp(source, 'gu');
  } catch (err) {
    throw new Error(`error parsing regexp: ${(err as Error).message}`);
  }
  if (cache.size > 500) cache.clear();
  cache.set(pattern, re);
  return re;
}

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
