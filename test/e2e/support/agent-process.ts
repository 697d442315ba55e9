// Starts `bin/orch agent` as a real child process with its own root dir and configuration.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './orch-process.ts';
import { unmountAllUnder } from '../../../src/agent/pods/volumes/host-mounts.ts';

export interface AgentProcess {
  rootDir: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
  kill(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
}

/** a KubeletConfiguration document with the given fields */
export function agentConfigYaml(fields: Record<string, unknown>): string {
  return ['apiVersion: kubelet.config.k8s.io/v1beta1', 'kind: KubeletConfiguration', ...Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`), ''].join('\n');
}

export async function startAgentProcess(opts: { kubeconfig?: string; args?: string[]; config?: Record<string, unknown>; rootDir?: string; port?: number; env?: NodeJS.ProcessEnv }): Promise<AgentProcess> {
  const rootDir = opts.rootDir ?? await mkdtemp(join(tmpdir(), 'orch-agent-'));
  const port = opts.port ?? await freePort();
  const configPath = join(rootDir, 'config.yaml');
  await writeFile(configPath, agentConfigYaml({ address: '127.0.0.1', port, healthzPort: 0, failSwapOn: false, ...opts.config }));
  const args = ['agent', '--config', configPath, '--root-dir', rootDir, ...(opts.kubeconfig ? ['--kubeconfig', opts.kubeconfig] : []), ...(opts.args ?? [])];
  const child = spawn(join(repoRoot, 'bin/orch'), args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
  let out = '', err = '';
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  await new Promise<void>((res, rej) => {
    // an agent that did not start is killed: left running, it would keep the test file from ever exiting
    const timer = setTimeout(() => { child.kill('SIGKILL'); rej(new Error(`agent did not start in 20s: ${err}`)); }, 20_000);
    child.stdout!.on('data', d => { out += d; if (/orch agent running/.test(out)) { clearTimeout(timer); res(); } });
    void exited.then(code => { clearTimeout(timer); rej(new Error(`agent exited (${code}) before starting: ${err}`)); });
  });
  return {
    rootDir, port, child,
    stderr: () => err,
    async stop() { child.kill('SIGTERM'); return exited; },
    async kill() { child.kill('SIGKILL'); await exited; },
    // pods left running when the test ended may still have volumes mounted there (tmpfs, shared bind mounts)
    async cleanup() { await unmountAllUnder(rootDir); await rm(rootDir, { recursive: true, force: true }); },
  };
}
