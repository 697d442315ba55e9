// Child processes for benchmarks: orch itself and the raw baseline server.

import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const node24 = join(repoRoot, 'node_modules/node/bin/node');

/** `url`: what the ready line's first group caught (the address, for a server) */
export interface Child { url: string; child: ChildProcess; stop(): Promise<void> }

/** the child once its output shows `ready` (a server's "listening on URL" unless given) */
export function startChild(cmd: string, args: string[], ready = /listening on (\S+)/): Promise<Child> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stderr!.on('data', d => { err += d; });
  return new Promise((res, rej) => {
    child.stdout!.on('data', d => {
      out += d;
      const m = ready.exec(out);
      if (m) res({ url: m[1]!, child, stop: () => new Promise(r => { child.once('exit', () => r()); child.kill('SIGTERM'); }) });
    });
    child.once('exit', code => rej(new Error(`${cmd} exited ${code}: ${err}`)));
  });
}

export function rssKiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8') as string;
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch { return 0; }
}

/** user + system CPU seconds a process has used (from /proc, in clock ticks of 10 ms) */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
