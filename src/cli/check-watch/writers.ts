// Concurrent writers for a watch-consistency run. Each writer owns its objects (names
// `w<writer>-<n>`), so nothing conflicts by design, and creates, updates (PUT at the last
// acknowledged resourceVersion, the counter raised by one) and deletes them at random. Every 2xx
// is written down with the resourceVersion the server answered. A write whose outcome is unknown
// (a broken connection, a 5xx, a timeout) leaves its object uncertain, and it is not written
// again: whatever the server did with it, the final list says.

import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Outcomes, WriteOp } from './history.ts';
import type { CheckedResource } from './resources.ts';

export interface Writers {
  outcomes: Outcomes;
  acknowledged(): number;
  /** failed writes, by whether their outcome is known */
  failures(): { refused: number; uncertain: number };
  /** stops after the writes in flight; resolves once they are settled */
  stop(): Promise<void>;
}

interface Owned { name: string; resourceVersion: string; counter: number }

/** the write surely did not happen: refused before anything was stored, or never sent */
function refused(err: unknown): boolean {
  if (err instanceof ApiError) return err.code >= 400 && err.code < 500 && err.code !== 409 && err.code !== 408;
  // a connection never made (the cause, when the request failed through its session)
  const cause = (err as { cause?: NodeJS.ErrnoException })?.cause;
  return (err as NodeJS.ErrnoException)?.code === 'ECONNREFUSED' || cause?.code === 'ECONNREFUSED';
}

/** `opts.first`: the number of the first writer, so that groups of writers (one per server) never share names */
export function startWriters(client: Client, path: string, res: CheckedResource, count: number, opts: { labels: Record<string, string>; first?: number; onError?: (message: string) => void }, outcomes: Outcomes): Writers {
  let stopped = false;
  let acked = 0;
  const failed = { refused: 0, uncertain: 0 };
  const body = (name: string, counter: number, writer: string, resourceVersion?: string) => ({
    apiVersion: 'v1', kind: res.kind,
    metadata: { name, labels: opts.labels, ...(resourceVersion ? { resourceVersion } : {}) },
    ...res.payload(counter, writer),
  });

  async function writer(w: number): Promise<void> {
    const writerName = `w${w}`;
    const live: Owned[] = [];
    let made = 0;
    let pause = 0;
    while (!stopped) {
      if (pause) await new Promise(r => setTimeout(r, pause));
      if (stopped) break;
      const roll = Math.random();
      const op: WriteOp = live.length < 3 || roll < 0.35 ? 'create' : roll < 0.85 ? 'update' : 'delete';
      const i = Math.floor(Math.random() * live.length);
      const target = op === 'create' ? { name: `${writerName}-${made++}`, resourceVersion: '', counter: 0 } : live[i]!;
      try {
        if (op === 'create') {
          const o = await client.create(path, body(target.name, 0, writerName));
          outcomes.acked.push({ name: target.name, op, resourceVersion: o.metadata.resourceVersion, counter: 0 });
          live.push({ name: target.name, resourceVersion: o.metadata.resourceVersion, counter: 0 });
        } else if (op === 'update') {
          const next = target.counter + 1;
          const o = await client.update(`${path}/${target.name}`, body(target.name, next, writerName, target.resourceVersion));
          outcomes.acked.push({ name: target.name, op, resourceVersion: o.metadata.resourceVersion, counter: next });
          target.resourceVersion = o.metadata.resourceVersion;
          target.counter = next;
        } else {
          await client.delete(`${path}/${target.name}`);
          outcomes.ackedDeletes.add(target.name);
          live.splice(i, 1);
        }
        acked++;
        pause = 0;
      } catch (err) {
        if (refused(err)) {
          failed.refused++;
          if (!(err instanceof ApiError) || err.code === 429) { pause = Math.min(200, pause * 2 || 20); continue; }
          // refused for what it is (a 404 for an object only this writer deletes, say): reported,
          // and the object left alone from now on; the final list shows what became of it
          opts.onError?.(`${writerName}: ${op} of ${target.name} refused: ${err.message}`);
          if (op !== 'create') live.splice(i, 1);
          continue;
        }
        failed.uncertain++;
        outcomes.uncertain.set(target.name, op);
        if (op !== 'create') live.splice(i, 1);
        pause = Math.min(200, pause * 2 || 20);
      }
    }
  }

  const running = Array.from({ length: count }, (_, w) => writer((opts.first ?? 0) + w));
  return {
    outcomes,
    acknowledged: () => acked,
    failures: () => ({ ...failed }),
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}
