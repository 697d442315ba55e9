// A property-based request fuzzer for `orch server` (fuzz/ holds its parts): random and mutated
// requests of every verb, media type and subresource, over HTTP/2 and HTTP/1.1 and now and then
// as raw bytes on a TLS socket, several in flight at once, spread over one or more servers. Every reply must come within a second,
// be a 2xx or a 4xx Status (never a 5xx), carry no JavaScript error text, and a rejected write
// must change nothing. Shared by the test suite (a fixed seed), `npm run fuzz` and `npm run soak`.
//
// Case i of a run is what fast-check draws first for a seed made of the run's seed and i, and a
// pool of workers sends the cases; the first failing case is then replayed alone through
// `fc.assert` with its seed, which shrinks it to a small request to report.

import fc from 'fast-check';
import type { FuzzTarget } from './fuzz/client.ts';
import { seedCluster } from './fuzz/cluster.ts';
import { fuzzRequest, rawRequest } from './fuzz/requests.ts';
import { Shard, type Case, type Tally } from './fuzz/shard.ts';

export type { FuzzTarget } from './fuzz/client.ts';
export { fuzzServerSetup, type FuzzServerSetup } from './fuzz/cluster.ts';

export interface FuzzOptions {
  seed: number;
  /** how many cases; without it, until `until` */
  runs?: number;
  /** a time (performance.now()) after which no new case starts */
  until?: number;
  /** requests in flight at once, over all servers (each server's writes go one at a time); default 12 */
  concurrency?: number;
  /** resident memory each server may reach (bytes) */
  maxRssBytes?: number;
  /** go on past failures, collecting them (the soak), instead of stopping and shrinking the first */
  keepGoing?: boolean;
  /** called with the figures so far every `progressMs` */
  progress?: (p: FuzzProgress) => void;
  progressMs?: number;
}

export interface FuzzProgress {
  done: number;
  /** the largest server's resident memory */
  rssBytes: number;
  /** how many replies had each status code (to see that valid requests get through too) */
  statuses: Record<number, number>;
  /** of the 5xx, those a proxy subresource answered with nowhere to go (503, as Kubernetes does) */
  proxyUnavailable: number;
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

const cases: fc.Arbitrary<Case> = fc.oneof({ weight: 40, arbitrary: fuzzRequest.map(r => ({ r })) }, { weight: 1, arbitrary: rawRequest.map(raw => ({ raw })) });

/** the fast-check seed of case `i` of a run (fast-check's own stream of cases cannot be cut into pieces that `fc.assert` replays) */
export const caseSeed = (seed: number, i: number): number => (Math.imul(seed, 0x01000193) ^ Math.imul(i + 1, 0x9e3779b1)) | 0;

/**
 * Runs the cases, case i on server i mod the number of servers; throws (with the seed, the shrunk
 * request and its reply) on the first failure unless `keepGoing`. Every 500 cases the servers
 * must be healthy and within their memory bound.
 */
export async function fuzzServer(targets: FuzzTarget | FuzzTarget[], opts: FuzzOptions): Promise<FuzzResult> {
  const concurrency = opts.concurrency ?? 12;
  const maxRss = opts.maxRssBytes ?? 600 * 1024 * 1024;
  const started = performance.now();
  const tally: Tally = { statuses: {}, replyMs: [], proxyUnavailable: 0 };
  const shards = [targets].flat().map(t => new Shard(t, concurrency, tally));
  const progress: FuzzProgress = { done: 0, rssBytes: 0, statuses: tally.statuses, failures: 0, get proxyUnavailable() { return tally.proxyUnavailable; } };
  const failureList: FuzzFailure[] = [];
  const properties = shards.map(shard => fc.asyncProperty(cases, c => shard.run(c)));
  const checkServers = async () => { for (const shard of shards) await shard.check(maxRss); };

  // case i is the first case fast-check draws for its own seed, so `fc.assert` with that seed replays it
  const caseAt = (i: number): Case => (fc.sample(properties[0]!, { seed: caseSeed(opts.seed, i), numRuns: 1 })[0] as unknown as [Case])[0];

  let next = 0, stopped = false;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (stopped || (opts.runs !== undefined && i >= opts.runs) || (opts.until !== undefined && performance.now() > opts.until)) return;
      try {
        await shards[i % shards.length]!.run(caseAt(i));
        if (++progress.done % 500 === 0) await checkServers();
      } catch (err) {
        progress.failures++;
        failureList.push({ index: i, message: (err as Error).message });
        if (!opts.keepGoing) stopped = true;
      }
    }
  };

  const ticker = opts.progress && setInterval(() => { progress.rssBytes = Math.max(...shards.map(s => s.rss())); opts.progress!(progress); }, opts.progressMs ?? 10_000);
  try {
    await Promise.all(shards.map(s => seedCluster(s.client)));
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (failureList.length && !opts.keepGoing) {
      const first = failureList.reduce((a, b) => (b.index < a.index ? b : a));
      // alone, on its server, through fast-check, which shrinks it (its message carries the seed and path)
      await fc.assert(properties[first.index % shards.length]!, { seed: caseSeed(opts.seed, first.index), numRuns: 1, endOnFailure: false });
      throw new Error(`case ${first.index} (fast-check seed ${caseSeed(opts.seed, first.index)}) failed, but not when replayed alone:\n${first.message}`);
    }
    await checkServers();
  } finally {
    if (ticker) clearInterval(ticker);
    for (const shard of shards) shard.close();
  }
  const replyMs = tally.replyMs.sort((a, b) => a - b);
  progress.rssBytes = Math.max(...shards.map(s => s.rss()));
  return {
    ...progress, ms: performance.now() - started, maxRssBytes: Math.max(...shards.map(s => s.peakRss)),
    slowestMs: replyMs.at(-1) ?? 0, p99Ms: replyMs[Math.floor(replyMs.length * 0.99)] ?? 0, failureList,
  };
}
