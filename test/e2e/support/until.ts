// Waiting in end-to-end tests: poll until a check gives a value, or fail naming what was awaited
// and the last error the check threw.

export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 30_000, everyMs = 200): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try { const v = await fn(); if (v) return v; } catch (err) { last = err; }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await new Promise(r => setTimeout(r, everyMs));
  }
}
