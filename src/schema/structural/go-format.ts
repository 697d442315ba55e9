// How Go's fmt prints the numbers kube-openapi puts in its messages: %v of a float64 is the
// shortest representation, in exponent form once the exponent is below -4 or at least 6
// (1e+06, 1.5e-05); %v of an int64 is its digits.

export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const x = Number(exp);
  if (x < -4 || x >= 6) {
    const digits = Math.abs(x) < 10 ? `0${Math.abs(x)}` : String(Math.abs(x));
    return `${mantissa}e${x < 0 ? '-' : '+'}${digits}`;
  }
  return String(n);
}
