// A boolean query parameter as kube-apiserver's query conversion reads it: false only for `0` and
// `false` (any letter case), true for anything else given, even an empty value. Shared by the API
// server's options and the registry's connect subresources.

/** the first value of a boolean parameter; undefined when absent (a *bool left nil) */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}
