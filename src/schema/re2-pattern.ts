// Regular expressions as Kubernetes reads them, RE2 syntax: CEL's find/findAll and the `pattern`
// of CRD schemas. Each pattern is compiled with RE2JS first, so what RE2 refuses (backreferences,
// lookaround) is refused in RE2's words; the match itself runs on a JavaScript RegExp, which
// agrees with RE2 on the syntax RE2 accepts once RE2's leading inline flags (`(?i)`, `(?s)`,
// `(?m)`) become a modifier group. RE2JS loads on the first pattern: a cluster whose schemas and
// policies have none never holds it.

import type * as Re2 from '@bufbuild/re2';
import { lazyModule } from '../api/lazy-module.ts';

const re2 = lazyModule<typeof Re2>('@bufbuild/re2', import.meta.url);
const cache = new Map<string, RegExp>();

/** the pattern as a global, unicode RegExp (stateful in test() and exec(): reset lastIndex or copy it) */
export function compileRe2(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  try {
    re2().RE2JS.compile(pattern);
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
