// One server of a fuzz run and what its cases go through: reads sent as they come, writes one at
// a time (each rejected one must leave the store's revision where it found it, but for the quota
// charges Kubernetes also leaves), the reply's checks, and the server's health and memory. A run
// spreads its cases over several servers so that their writes, each server's one at a time, go
// side by side.

import { FuzzClient, Unsendable, replyLimitMs, type FuzzReply, type FuzzTarget } from './client.ts';
import { describe, healthy, onlyQuotaCharges, replyProblem, rssBytes, storeRevision } from './checks.ts';
import type { FuzzRequest } from './requests.ts';

export type Case = { r: FuzzRequest } | { raw: string };

/** what every shard of a run adds to */
export interface Tally {
  statuses: Record<number, number>;
  /** 503s of proxy subresources with nowhere to go: Kubernetes' answer, not a server error */
  proxyUnavailable: number;
  replyMs: number[];
}

/** methods that never write; everything else goes one at a time, so a rejected one's revisions are its own */
const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/** one at a time, in order */
function serializer(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return fn => { const run = tail.then(fn, fn); tail = run.catch(() => {}); return run; };
}

export class Shard {
  readonly client: FuzzClient;
  #oneWrite = serializer();
  // the store's revision after the last write: nothing else writes (the server runs no
  // controllers) and reads never do, so it is where the next write starts (undefined: read it)
  #revision: number | undefined;
  peakRss = 0;
  readonly target: FuzzTarget;
  readonly #tally: Tally;

  constructor(target: FuzzTarget, sockets: number, tally: Tally) {
    this.target = target;
    this.#tally = tally;
    this.client = new FuzzClient(target, sockets);
  }

  rss(): number {
    const rss = rssBytes(this.target.pid);
    this.peakRss = Math.max(this.peakRss, rss);
    return rss;
  }

  /** throws unless the server answers /healthz and holds at most `maxRss` bytes */
  async check(maxRss: number): Promise<void> {
    const rss = this.rss();
    if (!(await healthy(this.client))) throw new Error(`the server (pid ${this.target.pid}) stopped answering /healthz`);
    if (rss > maxRss) throw new Error(`the server (pid ${this.target.pid}) holds ${(rss / 2 ** 20).toFixed(0)} MiB, over ${(maxRss / 2 ** 20).toFixed(0)} MiB`);
  }

  async #send(r: FuzzRequest): Promise<FuzzReply | undefined> {
    let reply: FuzzReply;
    try {
      reply = await this.client.send(r);
    } catch (err) {
      if (err instanceof Unsendable) return undefined;
      throw new Error(`${(err as Error).message}\n${describe(r)}`);
    }
    this.#tally.statuses[reply.status] = (this.#tally.statuses[reply.status] ?? 0) + 1;
    this.#tally.replyMs.push(reply.ms);
    const problem = replyProblem(r, reply);
    if (problem) throw new Error(`${problem}\n${describe(r, reply)}`);
    if (reply.status === 503) this.#tally.proxyUnavailable++;
    return reply;
  }

  /** sends one case; throws with what is wrong */
  async run(c: Case): Promise<void> {
    if ('raw' in c) {
      const { reply, closed } = await this.#oneWrite(() => { this.#revision = undefined; return this.client.raw(c.raw); });
      if (!reply && !closed) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: neither a reply nor a close within ${replyLimitMs} ms`);
      if (/^HTTP\/1\.1 5/.test(reply)) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: ${reply.slice(0, 300)}`);
      return;
    }
    if (reads.has(c.r.method)) { await this.#send(c.r); return; }
    await this.#oneWrite(async () => {
      const before = this.#revision ?? await storeRevision(this.client);
      this.#revision = undefined;
      const reply = await this.#send(c.r);
      const after = this.#revision = await storeRevision(this.client);
      if (!reply || reply.status < 400) return;
      if (after !== before && !(await onlyQuotaCharges(this.client, before, after))) throw new Error(`a rejected request wrote (revision ${before} → ${after})\n${describe(c.r, reply)}`);
    });
  }

  close(): void { this.client.close(); }
}
