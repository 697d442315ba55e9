// Resource quantities as numbers, for comparisons such as requests against limits. Only
// well-formed quantities reach validation (the decoder refuses the rest), so this reads the
// number and its suffix and nothing more.

const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** the value of a quantity ("500m" is 0.5, "1Gi" is 2^30, 3 is 3); undefined when malformed */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE]?)$/.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = m[2]!;
  if (/^[eE][+-]?\d+$/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return n * (binary[suffix] ?? decimal[suffix] ?? NaN);
}
