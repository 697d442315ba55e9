// /healthz, /livez and /readyz: named checks, `verbose`, `exclude`, single checks by path,
// start-up hooks (poststarthook/<name>), the livez grace period and the readyz shutdown check.
// Machines read only the status code; the text is for people, worded as kube-apiserver words it
// (the public list withholds reasons; a single check's path, like Kubernetes, shows its error).

import type { Logger } from '../api/log.ts';

export type Endpoint = 'healthz' | 'livez' | 'readyz';
export const ALL_ENDPOINTS: readonly Endpoint[] = ['healthz', 'livez', 'readyz'];

export interface Check {
  name: string;
  /** throws (or rejects) when unhealthy */
  check(): void | Promise<void>;
}

export interface AddCheckOptions {
  /**
   * a start-up step: during the livez grace period (counted from when it is added) livez takes it
   * as passing without running it, so a slow start is not mistaken for a dead server
   */
  bootSequence?: boolean;
}

export interface HealthResponse { status: number; headers: Record<string, string>; body: string }

export interface Health {
  addCheck(endpoints: readonly Endpoint[], check: Check, opts?: AddCheckOptions): void;
  /** a start-up step on all three endpoints; its check fails ("not finished") until done() */
  addPostStartHook(name: string): () => void;
  /** readyz starts failing: load balancers route traffic away while requests drain */
  beginShutdown(): void;
  /** check names in the order they are run and printed */
  checkNames(endpoint: Endpoint): string[];
  /** the response for a health path, or undefined for any other path */
  handle(path: string, query: URLSearchParams): Promise<HealthResponse | undefined>;
}

export interface HealthOptions {
  now?: () => number;
  /** --livez-grace-period, in milliseconds (Kubernetes' default is 0) */
  livezGracePeriodMs?: number;
  /** a check still running after this long counts as failed */
  checkTimeoutMs?: number;
  log?: Logger;
}

interface Entry { check: Check; livezPassUntil: number }

const textHeaders = () => ({ 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
const reply = (status: number, body: string): HealthResponse => ({ status, headers: textHeaders(), body });
const notFound = () => reply(404, '404 page not found\n');
const pathPattern = /^\/(healthz|livez|readyz)(?:\/(.*))?$/;

export function createHealth(opts: HealthOptions = {}): Health {
  const now = opts.now ?? Date.now;
  const grace = opts.livezGracePeriodMs ?? 0;
  const timeoutMs = opts.checkTimeoutMs ?? 10_000;
  const lists: Record<Endpoint, Entry[]> = { healthz: [], livez: [], readyz: [] };
  let shuttingDown = false;
  // kube-apiserver adds the shutdown check last, when it prepares to serve, so it prints last
  const shutdown: Entry = { livezPassUntil: 0, check: { name: 'shutdown', check() { if (shuttingDown) throw new Error('process is shutting down'); } } };

  const entries = (endpoint: Endpoint): Entry[] => endpoint === 'readyz' ? [...lists.readyz, shutdown] : lists[endpoint];

  const addCheck = (endpoints: readonly Endpoint[], check: Check, add: AddCheckOptions = {}) => {
    for (const e of endpoints) {
      if (entries(e).some(x => x.check.name === check.name)) throw new Error(`health check ${JSON.stringify(check.name)} is already registered on /${e}`);
    }
    const livezPassUntil = add.bootSequence ? now() + grace : 0;
    for (const e of endpoints) lists[e].push({ check, livezPassUntil });
  };

  // always there, first, as in Kubernetes: the server answers, and logging is not wedged
  addCheck(ALL_ENDPOINTS, { name: 'ping', check() {} });
  addCheck(ALL_ENDPOINTS, { name: 'log', check() {} });

  const runCheck = async (endpoint: Endpoint, entry: Entry): Promise<Error | undefined> => {
    if (endpoint === 'livez' && now() < entry.livezPassUntil) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        entry.check.check(),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs}ms`)), timeoutMs); }),
      ]);
      return undefined;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      clearTimeout(timer);
    }
  };

  const runAll = async (endpoint: Endpoint, query: URLSearchParams): Promise<HealthResponse> => {
    const excluded = new Set(query.getAll('exclude'));
    const lines: string[] = [];
    const failures: string[] = [];
    for (const entry of entries(endpoint)) {
      const name = entry.check.name;
      if (excluded.delete(name)) {
        lines.push(`[+]${name} excluded: ok`);
        continue;
      }
      const err = await runCheck(endpoint, entry);
      if (err) {
        lines.push(`[-]${name} failed: reason withheld`);
        failures.push(`[-]${name} failed: ${err.message}`);
      } else {
        lines.push(`[+]${name} ok`);
      }
    }
    if (excluded.size > 0) {
      const names = [...excluded].sort().map(n => JSON.stringify(n)).join(',');
      lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
    }
    if (failures.length > 0) {
      opts.log?.info(`/${endpoint} check failed`, { failures });
      // the list is printed on failure even without `verbose`
      return reply(500, `${lines.join('\n')}\n${endpoint} check failed\n`);
    }
    if (!query.has('verbose')) return reply(200, 'ok');
    return reply(200, `${lines.join('\n')}\n${endpoint} check passed\n`);
  };

  return {
    addCheck,
    addPostStartHook(name) {
      let done = false;
      addCheck(ALL_ENDPOINTS, { name: `poststarthook/${name}`, check() { if (!done) throw new Error('not finished'); } }, { bootSequence: true });
      return () => { done = true; };
    },
    beginShutdown() { shuttingDown = true; },
    checkNames: endpoint => entries(endpoint).map(e => e.check.name),
    async handle(path, query) {
      const m = pathPattern.exec(path);
      if (!m) return undefined;
      const endpoint = m[1] as Endpoint;
      if (m[2] === undefined) return runAll(endpoint, query);
      const entry = entries(endpoint).find(e => e.check.name === m[2]);
      if (!entry) return notFound();
      const err = await runCheck(endpoint, entry);
      return err ? reply(500, `internal server error: ${err.message}\n`) : reply(200, 'ok');
    },
  };
}
