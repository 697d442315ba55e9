// /healthz, /livez and /readyz: named checks, `verbose`, `exclude`, single checks by path,
// start-up hooks (poststarthook/<name>), the livez grace period and the readyz shutdown check.
// Machines read only the status code; the text is for people, worded as kube-apiserver words it.

export type Endpoint = 'healthz' | 'livez' | 'readyz';

export interface Check {
  name: string;
  /** throws (or rejects) when unhealthy */
  check(): void | Promise<void>;
}

export interface HealthResponse { status: number; headers: Record<string, string>; body: string }

export interface Health {
  addCheck(endpoints: Endpoint[], check: Check): void;
  /** a start-up step; its check fails until done() is called */
  addPostStartHook(name: string): () => void;
  /** readyz starts failing (graceful shutdown) */
  beginShutdown(): void;
  handle(path: string, query: URLSearchParams): Promise<HealthResponse | undefined>;
}

const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

export function createHealth(opts: { now?: () => number; livezGracePeriodMs?: number } = {}): Health {
  const now = opts.now ?? Date.now;
  const started = now();
  const checks: Record<Endpoint, Check[]> = { healthz: [], livez: [], readyz: [] };
  let shuttingDown = false;
  const all: Endpoint[] = ['healthz', 'livez', 'readyz'];
  const add = (eps: Endpoint[], c: Check) => { for (const e of eps) checks[e].push(c); };

  add(all, { name: 'ping', check() {} });
  add(all, { name: 'log', check() {} });
  add(['readyz'], { name: 'shutdown', check() { if (shuttingDown) throw new Error('process is shutting down'); } });

  const run = async (endpoint: Endpoint, c: Check): Promise<boolean> => {
    try {
      await c.check();
      return true;
    } catch {
      // during the grace period livez takes unfinished start-up hooks on trust
      return endpoint === 'livez' && c.name.startsWith('poststarthook/') && now() - started < (opts.livezGracePeriodMs ?? 0);
    }
  };

  return {
    addCheck: add,
    addPostStartHook(name) {
      let done = false;
      add(all, { name: `poststarthook/${name}`, check() { if (!done) throw new Error('not finished'); } });
      return () => { done = true; };
    },
    beginShutdown() { shuttingDown = true; },
    async handle(path, query) {
      const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
      if (!m) return undefined;
      const endpoint = m[1] as Endpoint;
      const list = checks[endpoint];
      if (m[2] !== undefined) {
        const c = list.find(x => x.name === m[2]);
        if (!c) return { status: 404, headers: text, body: '404 page not found\n' };
        return (await run(endpoint, c))
          ? { status: 200, headers: text, body: 'ok' }
          : { status: 500, headers: text, body: 'internal server error: check failed\n' };
      }
      const excluded = new Set(query.getAll('exclude'));
      const verbose = query.has('verbose');
      let failed = false;
      const lines: string[] = [];
      for (const c of list) {
        if (excluded.has(c.name)) {
          excluded.delete(c.name);
          lines.push(`[+]${c.name} excluded: ok`);
          continue;
        }
        if (await run(endpoint, c)) lines.push(`[+]${c.name} ok`);
        else { failed = true; lines.push(`[-]${c.name} failed: reason withheld`); }
      }
      if (excluded.size) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map(e => JSON.stringify(e)).join(',')}`);
      if (failed) return { status: 500, headers: text, body: `${lines.join('\n')}\n${endpoint} check failed\n` };
      return { status: 200, headers: text, body: verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok' };
    },
  };
}
