// Real etcd for tests: one member or a cluster on free loopback ports with temporary data dirs.
// Tests skip with a printed reason where the binary is missing; in CI, which installs etcd-server,
// a missing one fails them (test/support/requires.ts).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function etcdBinary(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v etcd'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Member { name: string; client: number; peer: number; dataDir: string; proc?: ChildProcess }

export interface EtcdCluster {
  /** client URLs of every member */
  endpoints: string[];
  stop(i: number): Promise<void>;
  start(i: number): Promise<void>;
  healthy(i: number): Promise<boolean>;
  /** member i's process id while it runs (for its RSS and CPU) */
  pid(i: number): number | undefined;
  close(): Promise<void>;
}

export async function startEtcd(members = 1): Promise<EtcdCluster> {
  const bin = etcdBinary();
  if (!bin) throw new Error('etcd is not installed');
  const base = await mkdtemp(join(tmpdir(), 'orch-etcd-'));
  const ms: Member[] = [];
  for (let i = 0; i < members; i++) ms.push({ name: `m${i}`, client: await freePort(), peer: await freePort(), dataDir: join(base, `m${i}`) });
  const initial = ms.map(m => `${m.name}=http://127.0.0.1:${m.peer}`).join(',');
  const url = (m: Member) => `http://127.0.0.1:${m.client}`;

  const healthy = async (i: number): Promise<boolean> => {
    try {
      const r = await fetch(`${url(ms[i]!)}/health`, { signal: AbortSignal.timeout(1000) });
      return r.ok && (await r.json() as { health?: string }).health === 'true';
    } catch {
      return false;
    }
  };
  const launch = (m: Member) => {
    m.proc = spawn(bin, [
      '--name', m.name, '--data-dir', m.dataDir,
      '--listen-client-urls', url(m), '--advertise-client-urls', url(m),
      '--listen-peer-urls', `http://127.0.0.1:${m.peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${m.peer}`,
      '--initial-cluster', initial, '--initial-cluster-state', 'new', '--initial-cluster-token', base,
      '--heartbeat-interval', '50', '--election-timeout', '500', '--log-level', 'error', '--logger', 'zap',
    ], { stdio: 'ignore' });
  };
  const waitHealthy = async (i: number) => {
    const deadline = Date.now() + 20_000;
    while (!(await healthy(i))) {
      if (Date.now() > deadline) throw new Error(`etcd member ${i} did not become healthy`);
      await new Promise(r => setTimeout(r, 100));
    }
  };
  for (const m of ms) launch(m);
  for (let i = 0; i < ms.length; i++) await waitHealthy(i);
  const stop = async (i: number) => {
    const p = ms[i]!.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise(r => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    ms[i]!.proc = undefined;
  };
  return {
    endpoints: ms.map(url),
    stop,
    async start(i) { launch(ms[i]!); await waitHealthy(i); },
    healthy,
    pid: i => ms[i]!.proc?.pid,
    async close() {
      for (let i = 0; i < ms.length; i++) await stop(i);
      await rm(base, { recursive: true, force: true });
    },
  };
}
