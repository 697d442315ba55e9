// Go's semantic equality of two specs as JSON holds them: a false boolean and an absent field are
// the same (omitempty), and key order does not matter.

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || v === false || v === null) continue;
      out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

export function sameSpec(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
