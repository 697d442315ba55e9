// $(( expression )): integer arithmetic with + - * / % and parentheses over numbers and
// variables (a name, or $name, whose value is read as a number, empty or unset as 0) — enough
// for the counters and sums containers compute in loops.

/** an expression outside the subset (found when the script is read) */
export class ArithSyntaxError extends Error {}
/** a division by zero while running: busybox sh ends the script with status 2 */
export class ArithRuntimeError extends Error {}

const token = /\s*(\d+|\$?[A-Za-z_][A-Za-z0-9_]*|[-+*/%()])/y;

/** the expression's tokens; anything outside the subset is refused when the script is read */
export function arithTokens(expr: string): string[] {
  const out: string[] = [];
  token.lastIndex = 0;
  while (token.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(token.lastIndex))) break;
    const m = token.exec(expr);
    if (!m) throw new ArithSyntaxError(`arithmetic syntax error: ${expr}`);
    out.push(m[1]!);
  }
  if (!out.length) throw new ArithSyntaxError(`arithmetic syntax error: ${expr}`);
  return out;
}

export function evaluateArith(expr: string, lookup: (name: string) => string): string {
  const ts = arithTokens(expr);
  let i = 0;
  const fail = () => { throw new ArithSyntaxError(`arithmetic syntax error: ${expr}`); };
  const primary = (): number => {
    const t = ts[i++];
    if (t === undefined) return fail();
    if (t === '(') { const v = sum(); if (ts[i++] !== ')') fail(); return v; }
    if (t === '-') return -primary();
    if (t === '+') return primary();
    if (/^\d+$/.test(t)) return Number(t);
    if (/^\$?[A-Za-z_]/.test(t)) { const v = Number.parseInt(lookup(t.replace(/^\$/, '')) || '0', 10); return Number.isNaN(v) ? 0 : v; }
    return fail();
  };
  const product = (): number => {
    let v = primary();
    while (ts[i] === '*' || ts[i] === '/' || ts[i] === '%') {
      const op = ts[i++]!;
      const r = primary();
      if (op !== '*' && r === 0) throw new ArithRuntimeError('divide by zero');
      v = op === '*' ? v * r : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (ts[i] === '+' || ts[i] === '-') v = ts[i++] === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i !== ts.length) fail();
  return String(v);
}
