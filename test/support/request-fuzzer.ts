// A property-based request fuzzer for `orch server` (fuzz/ holds its parts): random and mutated
// requests of every verb, media type and subresource, over HTTP/2 and HTTP/1.1 and now and then
// as raw bytes on a TLS socket, several in flight at once. Every reply must come within a second,
// be a 2xx or a 4xx Status (never a 5xx), carry no JavaScript error text, and a rejected write
// must change nothing. Shared by the test suite (a fixed seed), `npm run fuzz` and `npm run soak`.
//
// Case i of a run is what fast-check draws first for a seed made of the run's seed and i, and a
// pool of workers sends the cases; the first failing case is then replayed alone through
// `fc.assert` with its seed, which shrinks it to a small request to report.

import fc from 'fast-check';
import { FuzzClient, Unsendable, replyLimitMs, type FuzzReply, type FuzzTarget } from './fuzz/client.ts';
import { describe, healthy, onlyQuotaCharges, replyProblem, rssBytes, storeRevision } from './fuzz/checks.ts';
import { seedCluster } from './fuzz/cluster.ts';
import { fuzzRequest, rawRequest, type FuzzRequest } from './fuzz/requests.ts';

export type { FuzzTarget } from './fuzz/client.ts';
export { fuzzServerSetup, type FuzzServerSetup } from './fuzz/cluster.ts';

export interface FuzzOptions {
  seed: number;
  /** how many cases; without it, until `until` */
  runs?: number;
  /** a time (performance.now()) after which no new case starts */
  until?: number;
  /** requests in flight at once (writes go one at a time, see below); default 12 */
  concurrency?: number;
  /** resident memory the server may reach (bytes) */
  maxRssBytes?: number;
  /** go on past failures, collecting them (the soak), instead of stopping and shrinking the first */
  keepGoing?: boolean;
  /** called with the figures so far every `progressMs` */
  progress?: (p: FuzzProgress) => void;
  progressMs?: number;
}

export interface FuzzProgress {
  done: number;
  rssBytes: number;
  /** how many replies had each status code (to see that valid requests get through too) */
  statuses: Record<number, number>;
  failures: number;
}

export interface FuzzFailure { index: number; message: string }

export interface FuzzResult extends FuzzProgress {
  ms: number;
  maxRssBytes: number;
  /** the slowest reply, and the 99th percentile (ms) */
  slowestMs: number;
  p99Ms: number;
  failureList: FuzzFailure[];
}

type Case = { r: FuzzRequest } | { raw: string };
const cases: fc.Arbitrary<Case> = fc.oneof({ weight: 40, arbitrary: fuzzRequest.map(r => ({ r })) }, { weight: 1, arbitrary: rawRequest.map(raw => ({ raw })) });

/** methods that never write; everything else goes one at a time, so a rejected one's revisions are its own */
const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/** the fast-check seed of case `i` of a run (fast-check's own stream of cases cannot be cut into pieces that `fc.assert` replays) */
export const caseSeed = (seed: number, i: number): number => (Math.imul(seed, 0x01000193) ^ Math.imul(i + 1, 0x9e3779b1)) | 0;

/** one at a time, in order */
function serializer(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return fn => { const run = tail.then(fn, fn); tail = run.catch(() => {}); return run; };
}

/**
 * Runs the cases; throws (with the seed, the shrunk request and its reply) on the first failure
 * unless `keepGoing`. Every 500 cases the server must be healthy and within its memory bound.
 */
export async function fuzzServer(target: FuzzTarget, opts: FuzzOptions): Promise<FuzzResult> {
  const concurrency = opts.concurrency ?? 12;
  const client = new FuzzClient(target, concurrency);
  const maxRss = opts.maxRssBytes ?? 600 * 1024 * 1024;
  const oneWrite = serializer();
  const started = performance.now();
  const progress: FuzzProgress = { done: 0, rssBytes: 0, statuses: {}, failures: 0 };
  const failureList: FuzzFailure[] = [];
  const replyMs: number[] = [];
  let peak = 0;

  const checkServer = async () => {
    const rss = progress.rssBytes = rssBytes(target.pid);
    peak = Math.max(peak, rss);
    if (!(await healthy(client))) throw new Error('the server stopped answering /healthz');
    if (rss > maxRss) throw new Error(`the server holds ${(rss / 2 ** 20).toFixed(0)} MiB, over ${(maxRss / 2 ** 20).toFixed(0)} MiB`);
  };

  const send = async (r: FuzzRequest): Promise<FuzzReply | undefined> => {
    let reply: FuzzReply;
    try {
      reply = await client.send(r);
    } catch (err) {
      if (err instanceof Unsendable) return undefined;
      throw new Error(`${(err as Error).message}\n${describe(r)}`);
    }
    progress.statuses[reply.status] = (progress.statuses[reply.status] ?? 0) + 1;
    replyMs.push(reply.ms);
    const problem = replyProblem(r, reply);
    if (problem) throw new Error(`${problem}\n${describe(r, reply)}`);
    return reply;
  };

  // the store's revision after the last write; nothing else writes (the server runs no controllers)
  // and reads never do, so it is the next write's starting point (undefined: read it again)
  let revision: number | undefined;
  const runCase = async (c: Case): Promise<void> => {
    if ('raw' in c) {
      const { reply, closed } = await oneWrite(() => { revision = undefined; return client.raw(c.raw); });
      if (!reply && !closed) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: neither a reply nor a close within ${replyLimitMs} ms`);
      if (/^HTTP\/1\.1 5/.test(reply)) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: ${reply.slice(0, 300)}`);
      return;
    }
    if (reads.has(c.r.method)) { await send(c.r); return; }
    await oneWrite(async () => {
      const before = revision ?? await storeRevision(client);
      revision = undefined;
      const reply = await send(c.r);
      const after = revision = await storeRevision(client);
      if (!reply || reply.status < 400) return;
      if (after !== before && !(await onlyQuotaCharges(client, before, after))) throw new Error(`a rejected request wrote (revision ${before} → ${after})\n${describe(c.r, reply)}`);
    });
  };
  const property = fc.asyncProperty(cases, runCase);

  // case i is the first case fast-check draws for its own seed, so `fc.assert` with that seed replays it
  const caseAt = (i: number): Case => (fc.sample(property, { seed: caseSeed(opts.seed, i), numRuns: 1 })[0] as unknown as [Case])[0];

  let next = 0, stopped = false;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (stopped || (opts.runs !== undefined && i >= opts.runs) || (opts.until !== undefined && performance.now() > opts.until)) return;
      const c = caseAt(i);
      try {
        await runCase(c);
        if (++progress.done % 500 === 0) await checkServer();
      } catch (err) {
        progress.failures++;
        failureList.push({ index: i, message: (err as Error).message });
        if (!opts.keepGoing) stopped = true;
      }
    }
  };

  const ticker = opts.progress && setInterval(() => { progress.rssBytes = rssBytes(target.pid); opts.progress!(progress); }, opts.progressMs ?? 10_000);
  try {
    await seedCluster(client);
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (failureList.length && !opts.keepGoing) {
      const first = failureList.reduce((a, b) => (b.index < a.index ? b : a));
      // alone, through fast-check, which shrinks it (its message carries the seed and path)
      await fc.assert(property, { seed: caseSeed(opts.seed, first.index), numRuns: 1, endOnFailure: false });
      throw new Error(`case ${first.index} (fast-check seed ${caseSeed(opts.seed, first.index)}) failed, but not when replayed alone:\n${first.message}`);
    }
    await checkServer();
  } finally {
    if (ticker) clearInterval(ticker);
    client.close();
  }
  replyMs.sort((a, b) => a - b);
  return { ...progress, ms: performance.now() - started, maxRssBytes: peak, slowestMs: replyMs.at(-1) ?? 0, p99Ms: replyMs[Math.floor(replyMs.length * 0.99)] ?? 0, failureList };
}
