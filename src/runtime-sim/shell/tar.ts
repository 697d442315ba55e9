// busybox `tar` as `kubectl cp` runs it: `tar cf - PATH...` writes an archive of the container's
// files to stdout, `tar -xmf - [-C DIR]` reads one from stdin into the container's files. The
// sim's files are text, so archive members are kept one character per byte (latin1) and written
// back the same way: bytes that went in come out unchanged. Also `sha256sum`, to check them.

import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { tarArchive, type TarEntry } from '../../api/tar.ts';
import type { CommandIo, ShellAccess } from './host.ts';

/** a file's bytes: text written by the shell as UTF-8, bytes from an archive as they were */
export function fileBytes(content: string): Buffer {
  return Buffer.from(content, /[^\u0000-\u00ff]/.test(content) ? 'utf8' : 'latin1');
}

interface TarArgs { mode?: 'c' | 'x' | 't'; file?: string; dir?: string; paths: string[] }

function parseArgs(args: string[]): TarArgs {
  const out: TarArgs = { paths: [] };
  const takesValue = (flag: string, rest: string[]) => { if (flag === 'f') out.file = rest.shift(); else if (flag === 'C') out.dir = rest.shift(); };
  const rest = [...args];
  let first = true;
  while (rest.length) {
    const a = rest.shift()!;
    // the first word may bundle flags without a dash (`tar cf - x`)
    if ((first && /^[cxtvmfCpo]+$/.test(a)) || /^-[cxtvmfCpoz]+$/.test(a)) {
      for (const f of a.replace(/^-/, '')) {
        if (f === 'c' || f === 'x' || f === 't') out.mode = f;
        else takesValue(f, rest);
      }
    } else out.paths.push(a);
    first = false;
  }
  return out;
}

function readArchive(data: Buffer): Array<{ name: string; type: string; data: Buffer }> {
  const out = [];
  for (let at = 0; at + 512 <= data.length;) {
    const h = data.subarray(at, at + 512);
    if (h.every(b => b === 0)) break;
    const str = (from: number, len: number) => h.subarray(from, from + len).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(str(124, 12).trim() || '0', 8);
    const prefix = str(345, 155);
    const name = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
    out.push({ name, type: str(156, 1) || '0', data: data.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

export async function tar(args: string[], io: CommandIo, sh: ShellAccess): Promise<number> {
  const a = parseArgs(args);
  const base = a.dir ? posix.resolve(sh.cwd, a.dir) : sh.cwd;
  if (a.mode === 'c') {
    if (a.file !== '-' && a.file !== undefined) { await io.write(2, `tar: can't open '${a.file}': Read-only file system\n`); return 1; }
    const entries: TarEntry[] = [];
    let status = 0;
    for (const p of a.paths) {
      const abs = posix.resolve(base, p);
      const member = p.replace(/^\/+/, '');
      if (member !== p) await io.write(2, "tar: removing leading '/' from member names\n");
      const within = [...sh.host.files.keys()].filter(f => f.startsWith(`${abs}/`)).sort();
      if (sh.host.files.has(abs)) entries.push({ name: member, data: fileBytes(sh.host.files.get(abs)!), mtime: 0, mode: 0o644 });
      else if (within.length) {
        entries.push({ name: `${member}/`, data: '', mtime: 0, mode: 0o755 });
        for (const f of within) entries.push({ name: posix.join(member, posix.relative(abs, f)), data: fileBytes(sh.host.files.get(f)!), mtime: 0, mode: 0o644 });
      } else {
        await io.write(2, `tar: ${p}: No such file or directory\n`);
        status = 1;
      }
    }
    await io.write(1, tarArchive(entries));
    return status;
  }
  if (a.mode === 'x' || a.mode === 't') {
    const chunks: Buffer[] = [];
    for (let c = await sh.host.stdin?.read(); c; c = await sh.host.stdin?.read()) chunks.push(c);
    for (const e of readArchive(Buffer.concat(chunks))) {
      if (a.mode === 't') { await io.write(1, `${e.name}\n`); continue; }
      if (e.type === '0' || e.type === '7') sh.host.files.set(posix.resolve(base, e.name), e.data.toString('latin1'));
    }
    return 0;
  }
  await io.write(2, 'tar: need at least one of -c, -x or -t\n');
  return 1;
}

export async function sha256sum(args: string[], io: CommandIo, sh: ShellAccess): Promise<number> {
  let status = 0;
  for (const f of args) {
    const content = sh.host.files.get(posix.resolve(sh.cwd, f));
    if (content === undefined) { await io.write(2, `sha256sum: ${f}: No such file or directory\n`); status = 1; continue; }
    await io.write(1, `${createHash('sha256').update(fileBytes(content)).digest('hex')}  ${f}\n`);
  }
  return status;
}
