// The agent's health checks, aggregated as /healthz answers them: each check by name, all of
// them together, and `?verbose` listing each as [+]name ok / [-]name failed.

export type HealthCheck = () => string | undefined;

export interface HealthRegistry {
  add(name: string, check: HealthCheck): void;
  /** names of failing checks with why, empty when healthy */
  failures(): Array<{ name: string; reason: string }>;
  /** [status, body] for /healthz, /healthz/<name>, with extra lines appended to verbose output */
  answer(path: string, verbose: boolean, extra?: string[]): [number, string];
}

export function healthRegistry(): HealthRegistry {
  const checks = new Map<string, HealthCheck>();
  const run = (name: string): string | undefined => {
    try { return checks.get(name)!(); } catch (err) { return String((err as Error).message ?? err); }
  };
  return {
    add(name, check) { checks.set(name, check); },
    failures() {
      return [...checks.keys()].flatMap(name => { const reason = run(name); return reason ? [{ name, reason }] : []; });
    },
    answer(path, verbose, extra = []) {
      const sub = path.replace(/^\/healthz\/?/, '');
      if (sub) {
        if (!checks.has(sub)) return [404, '404 page not found\n'];
        const reason = run(sub);
        return reason ? [500, `internal server error: ${reason}\n`] : [200, 'ok'];
      }
      const results = [...checks.keys()].map(name => ({ name, reason: run(name) }));
      const failed = results.some(r => r.reason);
      if (!verbose && !failed) return [200, 'ok'];
      const lines = results.map(r => (r.reason ? `[-]${r.name} failed: reason withheld` : `[+]${r.name} ok`));
      if (verbose) lines.push(...extra);
      lines.push(failed ? 'healthz check failed' : 'healthz check passed');
      return [failed ? 500 : 200, lines.join('\n') + '\n'];
    },
  };
}
