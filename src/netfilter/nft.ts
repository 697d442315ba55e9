// The host's packet filter, through the `nft` tool. A whole script goes to one `nft -f -`, which
// the kernel applies as one transaction: a ruleset is never seen half-written, and a script that
// fails changes nothing. Shared by the service proxy and the network-policy enforcer, which each
// own one table of their own.

import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const searchPath = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

/** the `nft` executable, or undefined when the host has none */
export function findNft(): string | undefined {
  for (const dir of searchPath) {
    try { accessSync(`${dir}/nft`, constants.X_OK); return `${dir}/nft`; } catch { /* next */ }
  }
  return undefined;
}

export class NftError extends Error {
  readonly stderr: string;
  constructor(args: string[], stderr: string, code: number | null) {
    super(`nft ${args.join(' ')} failed (exit ${code}): ${stderr.trim()}`);
    this.stderr = stderr;
  }
}

/** runs nft with `args`, `input` on its stdin; resolves to its stdout */
export function runNft(args: string[], input = '', nft = findNft() ?? 'nft'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(nft, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    // nft that fails before reading all of its script closes stdin (EPIPE): its exit code and
    // stderr, reported on close, say why
    child.stdin.on('error', () => undefined);
    child.on('close', code => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new NftError(args, Buffer.concat(err).toString(), code));
    });
    // nft need not read its input (a list command never does): a pipe it closed first is no
    // error of ours, its exit status tells how it went
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** applies a script (`nft -f -` syntax) as one transaction */
export async function applyNft(script: string, nft?: string): Promise<void> {
  await runNft(['-f', '-'], script, nft);
}

/** a table's ruleset as `nft -j` JSON, or undefined when the table does not exist */
export async function listNftTable(family: string, table: string, nft?: string): Promise<unknown | undefined> {
  try {
    return JSON.parse(await runNft(['-j', 'list', 'table', family, table], '', nft));
  } catch (err) {
    if (err instanceof NftError && /No such file or directory/.test(err.stderr)) return undefined;
    throw err;
  }
}

/** removes a table and everything in it; nothing when it does not exist */
export async function deleteNftTable(family: string, table: string, nft?: string): Promise<void> {
  // `add` then `delete` in one transaction: deleting a table that is not there is then no error
  await applyNft(`add table ${family} ${table}\ndelete table ${family} ${table}\n`, nft);
}
