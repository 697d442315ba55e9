// Query parameters read as kube-apiserver's query conversion reads them: booleans by
// `api/query-bool.ts`; integers are 64-bit, with strconv's wording for what does not parse or does
// not fit.

export { queryBool } from '../api/query-bool.ts';

const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** why `v` is no 64-bit integer, in strconv's words; undefined when it is one */
export function intSyntaxError(v: string, unsigned: boolean): string | undefined {
  const fn = unsigned ? 'ParseUint' : 'ParseInt';
  if (!(unsigned ? /^\d+$/ : /^[+-]?\d+$/).test(v)) return `strconv.${fn}: parsing ${JSON.stringify(v)}: invalid syntax`;
  const n = BigInt(v);
  if (unsigned ? n > uint64Max : n > int64Max || n < -int64Max - 1n) return `strconv.${fn}: parsing ${JSON.stringify(v)}: value out of range`;
  return undefined;
}
