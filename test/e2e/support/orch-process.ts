// Starts `bin/orch server` as a real child process on a free port with its own data dir.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export interface OrchProcess {
  url: string;
  port: number;
  dataDir: string;
  kubeconfig: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for exit */
  stop(): Promise<number | null>;
  /** SIGKILL and wait */
  kill(): Promise<void>;
  /** remove the data dir */
  cleanup(): Promise<void>;
}

export async function startOrch(opts: { dataDir?: string; args?: string[]; port?: number } = {}): Promise<OrchProcess> {
  const dataDir = opts.dataDir ?? await mkdtemp(join(tmpdir(), 'orch-e2e-'));
  const child = spawn(join(repoRoot, 'bin/orch'), ['server', '--data-dir', dataDir, '--port', String(opts.port ?? 0), ...(opts.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '', err = '';
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  const url = await new Promise<string>((res, rej) => {
    // a server that did not start is killed: left running, it would keep the test file from ever exiting
    const timer = setTimeout(() => { child.kill('SIGKILL'); rej(new Error(`orch did not start in 20s: ${err}`)); }, 20_000);
    child.stdout!.on('data', d => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) { clearTimeout(timer); res(m[1]!); }
    });
    void exited.then(code => { clearTimeout(timer); rej(new Error(`orch exited (${code}) before starting: ${err}`)); });
  });
  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    kubeconfig: join(dataDir, 'admin.kubeconfig'),
    child,
    stderr: () => err,
    async stop() { child.kill('SIGTERM'); return exited; },
    async kill() { child.kill('SIGKILL'); await exited; },
    async cleanup() { await rm(dataDir, { recursive: true, force: true }); },
  };
}
