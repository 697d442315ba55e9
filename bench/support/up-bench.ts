// `orch up` from the user's side: the time from running the command to the API answering and to
// the node Ready (its own report, checked against the lines it prints), first start and on the
// same data dir again, and the resident memory of everything it runs (orch, and with containerd
// the daemon and its shims) once idle with one small workload.

import { spawn, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, rssKiB } from './processes.ts';

export interface UpStart { apiReadyMs: number; nodeReadyMs: number }
export interface UpBench { runtime: string; first: UpStart; again: UpStart; idleRssMiB: number; processes: number; orchRssMiB: number }

interface Running { start: UpStart; pid: number; out(): string; stop(): Promise<void> }

async function up(dataDir: string, runtime: string): Promise<Running> {
  const t0 = performance.now();
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', dataDir, '--port', '0', '--agent-port', '0', '--runtime', runtime], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  let apiReadyMs = 0;
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  const nodeReadyMs = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', d => {
      out += d;
      if (!apiReadyMs && /API server ready/.test(out)) apiReadyMs = performance.now() - t0;
      if (/^node \S+ Ready/m.test(out)) resolve(performance.now() - t0);
    });
    void exited.then(() => reject(new Error(`orch up exited: ${err}`)));
  });
  return { start: { apiReadyMs, nodeReadyMs }, pid: child.pid!, out: () => out, stop: async () => { child.kill('SIGINT'); await exited; } };
}

/** orch's process, its children, and the shims of its containerd (which leave the process tree by design) */
function processesOf(pid: number, socket: string | undefined): number[] {
  const out = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = Number(entry);
    // a process may end between the listing and the read (a kubectl, a shim's helper)
    const stat = (() => { try { return readFileSync(`/proc/${p}/stat`, 'utf8'); } catch { return ''; } })().split(') ')[1]?.split(' ') ?? [];
    const cmdline = (() => { try { return readFileSync(`/proc/${p}/cmdline`, 'utf8'); } catch { return ''; } })();
    if (Number(stat[1]) === pid || (socket && cmdline.includes(socket) && p !== pid)) out.push(p);
  }
  return [...new Set(out)];
}

export async function runUpBench(dir: string, runtime: 'sim' | 'containerd', kubectl: string): Promise<UpBench> {
  const dataDir = join(dir, `up-${runtime}`);
  const first = await up(dataDir, runtime);
  await first.stop();
  const again = await up(dataDir, runtime);
  try {
    const kubeconfig = join(dataDir, 'admin.kubeconfig');
    const image = runtime === 'sim' ? 'registry.local/app:1.0' : 'orch.local/pause:1';
    execFileSync(kubectl, ['--kubeconfig', kubeconfig, 'run', 'small', `--image=${image}`, '--image-pull-policy=IfNotPresent']);
    execFileSync(kubectl, ['--kubeconfig', kubeconfig, 'wait', '--for=condition=Ready', 'pod/small', '--timeout=60s']);
    // idle: the workload runs, nothing else happens for a while
    await new Promise(r => setTimeout(r, 15_000));
    const socket = /socket (\S+)\)/.exec(again.out())?.[1];
    const pids = processesOf(again.pid, socket);
    const rss = pids.reduce((sum, p) => sum + rssKiB(p), 0);
    return { runtime, first: first.start, again: again.start, idleRssMiB: rss / 1024, processes: pids.length, orchRssMiB: rssKiB(again.pid) / 1024 };
  } finally {
    await again.stop();
  }
}
