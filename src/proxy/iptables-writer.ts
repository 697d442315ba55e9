// The iptables fallback's I/O: `iptables-save` to find our chains, `iptables-restore --noflush`
// to write them (each table one transaction), and the jumps from the built-in chains put in
// once (checked with -C first, as kube-proxy does) and taken out on a clean stop.

import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import type { NodeFacts } from './rules.ts';
import type { ServicePort } from './service-ports.ts';
import { builtinJumps, defaultChainPrefix, existingChains, iptablesCleanup, iptablesRestore } from './iptables-rules.ts';

const dirs = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

/** `iptables-restore`'s directory, or undefined when the host has none */
export function findIptables(): string | undefined {
  for (const dir of dirs) {
    try { accessSync(`${dir}/iptables-restore`, constants.X_OK); accessSync(`${dir}/iptables`, constants.X_OK); return dir; } catch { /* next */ }
  }
  return undefined;
}

function run(bin: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [], err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => undefined);
    child.on('error', reject);
    child.on('close', code => (code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`${bin} ${args.join(' ')} failed (exit ${code}): ${Buffer.concat(err).toString().trim()}`))));
    child.stdin.end(input ?? '');
  });
}

const succeeds = (bin: string, args: string[]) => new Promise<boolean>(r => execFile(bin, args, err => r(!err)));

export interface IptablesWriter {
  /** writes every chain for these ports; resolves to the restore input written */
  sync(ports: ServicePort[], facts: NodeFacts): Promise<string>;
  /** the jumps and every chain of ours removed */
  cleanup(): Promise<void>;
}

export function iptablesWriter(dir = findIptables() ?? '/usr/sbin', prefix = defaultChainPrefix): IptablesWriter {
  const iptables = `${dir}/iptables`;
  const existing = async () => existingChains(await run(`${dir}/iptables-save`, []), prefix);
  return {
    async sync(ports, facts) {
      const input = iptablesRestore(ports, facts, await existing(), prefix);
      await run(`${dir}/iptables-restore`, ['--noflush'], input);
      for (const [table, chain, spec] of builtinJumps(prefix)) {
        if (!(await succeeds(iptables, ['-w', '-t', table, '-C', chain, ...spec]))) await run(iptables, ['-w', '-t', table, '-I', chain, '1', ...spec]);
      }
      return input;
    },
    async cleanup() {
      for (const [table, chain, spec] of builtinJumps(prefix)) {
        while (await succeeds(iptables, ['-w', '-t', table, '-D', chain, ...spec])) { /* every copy */ }
      }
      const found = await existing();
      if (found.nat.length || found.filter.length) await run(`${dir}/iptables-restore`, ['--noflush'], iptablesCleanup(found));
    },
  };
}
