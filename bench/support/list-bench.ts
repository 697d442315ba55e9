// Lists of 1k and 10k ConfigMaps, one request at a time, beside a raw server writing the same
// bytes over the same TLS and HTTP/2. The raw server is given orch's own answer, fetched once:
// a file made up in the bench would lack what the server writes into each item (managedFields,
// its uid and times) and so be a smaller body. Rounds alternate between the servers so that a
// busy spell of the shared machine falls on all of them; each figure is the median of its rounds,
// and each ratio the median of the rounds' ratios. The servers' CPU time per request is shown too.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, runLoad, type LoadResult, type TlsClient } from './load.ts';
import { cpuSeconds, node24, repoRoot, startChild } from './processes.ts';
import { median } from './admin-tls.ts';

export interface ListBenchRow {
  name: string;
  result: LoadResult;
  vsRaw?: number;
  /** the server's CPU time per request over all rounds, in ms (steadier than rates on a busy machine) */
  cpuMs: number;
}

const protobuf = 'application/vnd.kubernetes.protobuf';

/** one GET's body */
async function fetchBody(url: string, tls: TlsClient, path: string): Promise<Buffer> {
  const session = connect(url, tls);
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const stream = session.request({ ':path': path });
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', reject);
      stream.end();
    });
  } finally {
    session.close();
  }
}

/** the median round of each load, by requests per second */
function medianOf(results: LoadResult[]): LoadResult {
  const m = median(results.map(r => r.perSecond));
  return results.reduce((best, r) => (Math.abs(r.perSecond - m) < Math.abs(best.perSecond - m) ? r : best));
}

/**
 * `size` ConfigMaps (made by `create`) listed by orch as JSON, as protobuf and through a label
 * selector no object matches, beside raw GETs of orch's JSON answer; `rounds` rounds of `reps`.
 */
export async function runListBench(server: string, serverPid: number, tls: TlsClient, pkiDir: string, dir: string, opts: { size: number; reps: number; rounds: number; create: (ns: string) => Promise<void> }): Promise<ListBenchRow[]> {
  const ns = `list-${opts.size}`;
  await runLoad(server, tls, { total: 1, concurrency: 1, request: () => ({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) }) });
  await opts.create(ns);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const answer = join(dir, `list-${opts.size}.json`);
  await writeFile(answer, await fetchBody(server, tls, path));
  const raw = await startChild(node24, [join(repoRoot, 'bench/support/raw-server.ts'), pkiDir, 'plain', answer]);
  // protobuf lists take ten times as long: fewer of them
  const loads = {
    raw: { url: raw.url, pid: raw.child.pid!, path: '/x', accept: undefined, reps: opts.reps },
    json: { url: server, pid: serverPid, path, accept: undefined, reps: opts.reps },
    protobuf: { url: server, pid: serverPid, path, accept: protobuf, reps: Math.max(3, Math.round(opts.reps / 3)) },
    selected: { url: server, pid: serverPid, path: `${path}?labelSelector=app%3Dnone`, accept: undefined, reps: opts.reps },
  };
  const results: Record<keyof typeof loads, LoadResult[]> = { raw: [], json: [], protobuf: [], selected: [] };
  const cpu: Record<keyof typeof loads, number> = { raw: 0, json: 0, protobuf: 0, selected: 0 };
  try {
    for (let round = 0; round < opts.rounds; round++) {
      for (const [name, l] of Object.entries(loads) as Array<[keyof typeof loads, (typeof loads)['raw']]>) {
        const request = () => ({ method: 'GET', path: l.path, ...(l.accept ? { accept: l.accept } : {}) });
        // the first round starts with a few unmeasured requests (connections, code warmed up)
        if (round === 0) await runLoad(l.url, tls, { total: 3, concurrency: 1, request });
        const before = cpuSeconds(l.pid);
        results[name].push(await runLoad(l.url, tls, { total: l.reps, concurrency: 1, request, expect: 200 }));
        cpu[name] += cpuSeconds(l.pid) - before;
      }
    }
  } finally {
    await raw.stop();
  }
  const rawResult = medianOf(results.raw);
  const ratioOf = (r: LoadResult[]) => median(r.map((x, i) => x.perSecond / results.raw[i]!.perSecond));
  const cpuMs = (name: keyof typeof loads) => (cpu[name] * 1000) / (loads[name].reps * opts.rounds);
  return [
    { name: `raw GET of the same ${opts.size}-item list`, result: rawResult, cpuMs: cpuMs('raw') },
    { name: `orch list ${opts.size} configmaps`, result: medianOf(results.json), vsRaw: ratioOf(results.json), cpuMs: cpuMs('json') },
    { name: `orch list ${opts.size} configmaps, protobuf`, result: medianOf(results.protobuf), vsRaw: ratioOf(results.protobuf), cpuMs: cpuMs('protobuf') },
    { name: `orch list ${opts.size}, -l matching none`, result: medianOf(results.selected), cpuMs: cpuMs('selected') },
  ];
}
