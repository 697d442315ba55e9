// Booleans as Go's strconv.ParseBool reads them: the spellings Kubernetes accepts in query
// parameters and flags, and nothing else.

const goTrue = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** true or false, or undefined where ParseBool would fail */
export function parseGoBool(s: string): boolean | undefined {
  return goTrue.has(s) ? true : goFalse.has(s) ? false : undefined;
}
