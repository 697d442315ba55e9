// The host's mount table, and the mount(8) calls volumes need (a tmpfs for memory-backed
// emptyDirs, a shared bind mount for mount propagation). Read from /proc/self/mountinfo, whose
// paths are octal-escaped and whose optional fields say whether a mount is shared.

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface MountEntry { target: string; fsType: string; options: string; shared: boolean }

const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

export function parseMountInfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    const dash = f.indexOf('-');
    if (f.length < 10 || dash < 6) continue;
    out.push({ target: unescape(f[4]!), fsType: f[dash + 1]!, options: `${f[5]},${f[dash + 3] ?? ''}`, shared: f.slice(6, dash).some(x => x.startsWith('shared:')) });
  }
  return out;
}

export async function mountTable(): Promise<MountEntry[]> {
  return parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8').catch(() => ''));
}

/** the mount at exactly `path`, the last one mounted there */
export async function mountAt(path: string): Promise<MountEntry | undefined> {
  return (await mountTable()).filter(m => m.target === path).at(-1);
}

/** mount(8) or umount(8); the tool's own message on failure */
export async function runMount(tool: 'mount' | 'umount', args: string[]): Promise<void> {
  try {
    await execFileAsync(tool, args);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${tool} ${args.join(' ')}: ${(e.stderr || e.message).trim()}`);
  }
}

/**
 * Unmounts everything mounted at or below `dir`, deepest first, then says what is still mounted
 * there (nothing, when all went well): a directory with mounts left must not be removed, or the
 * removal would reach into what is mounted.
 */
export async function unmountAllUnder(dir: string): Promise<string[]> {
  const under = (m: MountEntry) => m.target === dir || m.target.startsWith(`${dir}/`);
  const targets = (await mountTable()).filter(under).map(m => m.target).sort((a, b) => b.length - a.length);
  for (const t of targets) await runMount('umount', [t]).catch(() => runMount('umount', ['-l', t])).catch(() => undefined);
  return (await mountTable()).filter(under).map(m => m.target);
}
