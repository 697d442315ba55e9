// kill -9 cycles under concurrent writers, for the e2e slice and `npm run soak`: each cycle
// starts a watch-consistency run (writers, watchers from a list), kills `orch server` with
// SIGKILL at a random moment, starts it again on the same data (and port), lets the writers go
// on a little, and then judges: every acknowledged write is still there (created objects with
// at least the acknowledged counter, acknowledged deletes gone), and every watcher, resuming
// across the restart as client-go does, saw each change once, in order, ending at a final list.
// On etcd, several API servers share it; one is killed each cycle, and in some cycles etcd too.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import type { Violation } from '../../src/cli/check-watch/history.ts';
import { checkedResources } from '../../src/cli/check-watch/resources.ts';
import { beginWatchCheck, type WatchCheckReport } from '../../src/cli/check-watch/session.ts';
import { startOrch, type OrchProcess } from '../e2e/support/orch-process.ts';
import { startEtcd, type EtcdCluster } from './etcd.ts';

export interface KillCycleOptions {
  backend: 'sqlite' | 'etcd';
  /** at most this many (Infinity: until `until`) */
  cycles: number;
  writers?: number;
  watchers?: number;
  /** etcd: API servers sharing it (default 2); server 0 is the one killed */
  servers?: number;
  /** etcd: the cycles (0-based) in which etcd is killed along with the server; default the last */
  etcdKillCycles?: number[];
  /** the writers run a random time in this range (ms) before the kill; default [300, 1200] */
  beforeKillMs?: [number, number];
  /** and this long after the restart; default 500 */
  afterRestartMs?: number;
  /** one line per step, for a soak's output */
  onProgress?: (line: string) => void;
  /** stop starting cycles once performance.now() passes this (a soak's end) */
  until?: number;
  /** run against the servers (their kubeconfigs) after the last cycle, before they are stopped */
  finally?: (kubeconfigs: string[]) => Promise<void>;
}

export interface CycleResult extends WatchCheckReport {
  cycle: number;
  killedAfterMs: number;
  restartMs: number;
  etcdKilled: boolean;
}

export interface KillCycleReport {
  cycles: CycleResult[];
  violations: Array<Violation & { cycle: number }>;
}

interface Server { proc: OrchProcess; client: Client; port: number; dataDir: string }

export async function runKillCycles(opts: KillCycleOptions): Promise<KillCycleReport> {
  const say = opts.onProgress ?? (() => {});
  const [lo, hi] = opts.beforeKillMs ?? [300, 1200];
  let etcd: EtcdCluster | undefined;
  let certDir: string | undefined;
  const servers: Server[] = [];
  const args: string[] = [];
  const report: KillCycleReport = { cycles: [], violations: [] };
  const connect = async (proc: OrchProcess): Promise<Server> => ({
    proc, port: proc.port, dataDir: proc.dataDir,
    client: createClient(await loadKubeconfig(proc.kubeconfig), { requestTimeoutMs: 15_000, userAgent: 'orch-kill-cycles' }),
  });
  try {
    if (opts.backend === 'etcd') {
      etcd = await startEtcd(1);
      certDir = await mkdtemp(join(tmpdir(), 'orch-kill-certs-'));
      args.push('--storage-backend=etcd3', `--etcd-servers=${etcd.endpoints.join(',')}`, `--cert-dir=${certDir}`);
    }
    const count = opts.backend === 'etcd' ? Math.max(1, opts.servers ?? 2) : 1;
    // the first makes the shared certificates; the others start together (on etcd, their
    // start-up writes race, as API servers restarted together do)
    servers.push(await connect(await startOrch({ args })));
    servers.push(...await Promise.all(Array.from({ length: count - 1 }, async () => connect(await startOrch({ args })))));
    const etcdKills = new Set(opts.etcdKillCycles ?? [opts.cycles - 1]);

    for (let cycle = 0; cycle < opts.cycles && !(opts.until && performance.now() > opts.until); cycle++) {
      const victim = servers[0]!;
      const opened = Date.now();
      const session = await beginWatchCheck(victim.client, {
        resource: checkedResources.configmaps!, writers: opts.writers ?? 8, watchers: opts.watchers ?? 3,
        clients: servers.map(s => s.client), watchTimeoutSeconds: [1, 4], catchUpMs: 20_000,
      });
      const killedAfterMs = lo + Math.floor(Math.random() * (hi - lo + 1));
      await new Promise(r => setTimeout(r, killedAfterMs));
      const killedAt = Date.now();
      const killEtcd = !!etcd && etcdKills.has(cycle);
      const atKill = session.progress();
      await victim.proc.kill();
      if (killEtcd) await etcd!.stop(0);
      const n = `${cycle + 1}${Number.isFinite(opts.cycles) ? `/${opts.cycles}` : ''}`;
      say(`cycle ${n} (${opts.backend}): killed the server${killEtcd ? ' and etcd' : ''} after ${killedAfterMs} ms, ${atKill.acknowledged} writes acknowledged`);
      const began = Date.now();
      if (killEtcd) await etcd!.start(0);
      victim.proc = await startOrch({ dataDir: victim.dataDir, port: victim.port, args });
      const restartMs = Date.now() - began;
      await new Promise(r => setTimeout(r, opts.afterRestartMs ?? 500));
      const finishing = Date.now();
      const result = await session.finish();
      report.cycles.push({ ...result, cycle, killedAfterMs, restartMs, etcdKilled: killEtcd });
      for (const v of result.violations) report.violations.push({ ...v, cycle });
      say(`cycle ${n}: back in ${restartMs} ms (set up in ${killedAt - opened - killedAfterMs} ms, judged in ${Date.now() - finishing} ms); ${result.acknowledged} acknowledged, ${result.uncertain} unknown, ${result.events} events, ${result.relists} re-lists: ${result.violations.length ? `${result.violations.length} VIOLATIONS` : 'ok'}`);
    }
    await opts.finally?.(servers.map(s => s.proc.kubeconfig));
    return report;
  } finally {
    for (const s of servers) {
      s.client.close();
      await s.proc.stop();
      await s.proc.cleanup();
    }
    await etcd?.close();
    if (certDir) await rm(certDir, { recursive: true, force: true });
  }
}
