// The programs the sim knows: enough of busybox for container commands, probes and tests.

import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { Builtin, ShellAccess } from './host.ts';
import { inBin } from '../executable.ts';
import { httpd } from './httpd.ts';
import { sha256sum, tar } from './tar.ts';
import { formatProcessList } from './process-list.ts';

export type { Builtin, CommandIo, ShellAccess } from './host.ts';

const resolvePath = (sh: ShellAccess, p: string) => posix.resolve(sh.cwd, p);

/** "10", "1.5", "2m", "infinity" as busybox sleep reads them; several add up */
export function sleepMs(args: string[]): number | undefined {
  const units: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const a of args) {
    if (a === 'inf' || a === 'infinity') return Infinity;
    const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(a);
    if (!m) return undefined;
    total += Number(m[1]) * units[m[2]!]!;
  }
  return total;
}

function echo(args: string[]): string {
  let newline = true, escapes = false;
  while (args[0] && /^-[neE]+$/.test(args[0])) {
    for (const f of args[0].slice(1)) { if (f === 'n') newline = false; else escapes = f === 'e'; }
    args = args.slice(1);
  }
  const text = args.join(' ');
  return (escapes ? unescape(text) : text) + (newline ? '\n' : '');
}

function unescape(s: string): string {
  return s.replace(/\\([ntr\\]|0?[0-7]{1,3})/g, (_, e: string) => ({ n: '\n', t: '\t', r: '\r', '\\': '\\' } as Record<string, string>)[e] ?? String.fromCharCode(parseInt(e, 8)));
}

function printf(args: string[]): string {
  const [format = '', ...values] = args;
  let i = 0;
  return unescape(format).replace(/%([sdi%])/g, (_, conv: string) => {
    if (conv === '%') return '%';
    const v = values[i++] ?? '';
    return conv === 's' ? v : String(Math.trunc(Number(v) || 0));
  });
}

/** test / [ : files, strings and integers, with ! */
function evaluateTest(args: string[], sh: ShellAccess): boolean {
  if (args[0] === '!') return !evaluateTest(args.slice(1), sh);
  if (args.length === 0) return false;
  if (args.length === 1) return args[0] !== '';
  if (args.length === 2) {
    const [op, v = ''] = args;
    const path = resolvePath(sh, v);
    switch (op) {
      case '-z': return v === '';
      case '-n': return v !== '';
      // the files the container wrote, and the image's own in /bin
      case '-e': case '-f': return sh.host.files.has(path) || inBin(path) || (op === '-e' && isDir(sh, path));
      case '-x': return inBin(path);
      case '-s': return (sh.host.files.get(path) ?? '') !== '';
      case '-d': return isDir(sh, path);
      default: return false;
    }
  }
  const [a = '', op, b = ''] = args;
  const n = (x: string) => Number.parseInt(x, 10);
  switch (op) {
    case '=': case '==': return a === b;
    case '!=': return a !== b;
    case '-eq': return n(a) === n(b);
    case '-ne': return n(a) !== n(b);
    case '-lt': return n(a) < n(b);
    case '-le': return n(a) <= n(b);
    case '-gt': return n(a) > n(b);
    case '-ge': return n(a) >= n(b);
    default: return false;
  }
}

/** directories exist where files were written, and the usual ones always */
function isDir(sh: ShellAccess, path: string): boolean {
  if (['/', '/tmp', '/etc', '/var', '/bin', '/usr', '/dev', '/proc'].includes(path)) return true;
  for (const f of sh.host.files.keys()) if (f.startsWith(path + '/')) return true;
  return false;
}

const signalNames: Record<string, 'TERM' | 'INT'> = { TERM: 'TERM', SIGTERM: 'TERM', '15': 'TERM', INT: 'INT', SIGINT: 'INT', '2': 'INT' };

export const builtins: Record<string, Builtin> = {
  httpd,
  tar,
  sha256sum,
  true: () => 0,
  ':': () => 0,
  false: () => 1,
  wait: () => 0,
  mkdir: () => 0,
  async sleep(args, io, sh) {
    const ms = sleepMs(args);
    if (ms === undefined || args.length === 0) {
      await io.write(2, args.length === 0 ? 'sleep: missing operand\n' : `sleep: invalid number '${args.find(a => sleepMs([a]) === undefined)}'\n`);
      return 1;
    }
    // a trapped signal interrupts the wait; sh reports it as 128 + the signal number
    return (await sh.host.sleep(ms)) ? 0 : 143;
  },
  async echo(args, io) {
    await io.write(1, echo(args));
    return 0;
  },
  async printf(args, io) {
    await io.write(1, printf(args));
    return 0;
  },
  async cat(args, io, sh) {
    let status = 0;
    const files = args.filter(a => !/^-[a-zA-Z]+$/.test(a));
    // no file, or `-`: standard input, copied as it comes until it ends
    if (files.length === 0 || files.includes('-')) {
      for (let chunk = await sh.host.stdin?.read(); chunk; chunk = await sh.host.stdin?.read()) await io.write(1, chunk.toString('utf8'));
    }
    for (const f of files.filter(a => a !== '-')) {
      const path = resolvePath(sh, f);
      const content = sh.host.files.get(path) ?? sh.host.readMounted?.(path);
      if (content === undefined) {
        await io.write(2, `cat: can't open '${f}': No such file or directory\n`);
        status = 1;
      } else {
        await io.write(1, content);
      }
    }
    return status;
  },
  // `head -c N` / `head -n N` of a file or of standard input: it stops reading once it has them
  async head(args, io, sh) {
    let bytes: number | undefined, lines = 10;
    const files: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-c') bytes = Number(args[++i]);
      else if (a === '-n') lines = Number(args[++i]);
      else if (/^-\d+$/.test(a)) lines = Number(a.slice(1));
      else files.push(a);
    }
    let text = '';
    if (files.length === 0 || files[0] === '-') {
      const want = () => (bytes !== undefined ? Buffer.byteLength(text) < bytes : text.split('\n').length <= lines);
      for (let chunk = want() ? await sh.host.stdin?.read() : null; chunk; chunk = want() ? await sh.host.stdin?.read() : null) text += chunk.toString('utf8');
    } else if (bytes !== undefined && (files[0] === '/dev/urandom' || files[0] === '/dev/zero')) {
      // the kernel's endless devices, read as far as asked
      await io.write(1, files[0] === '/dev/zero' ? Buffer.alloc(bytes) : randomBytes(bytes));
      return 0;
    } else {
      const content = sh.host.files.get(resolvePath(sh, files[0]!));
      if (content === undefined) { await io.write(2, `head: ${files[0]}: No such file or directory\n`); return 1; }
      text = content;
    }
    await io.write(1, bytes !== undefined ? Buffer.from(text).subarray(0, bytes).toString('utf8') : text.split('\n').slice(0, lines).join('\n') + (text.split('\n').length > lines ? '\n' : ''));
    return 0;
  },
  // `stty size`: rows and columns of the terminal, as the client last sized it
  async stty(args, io, sh) {
    const size = sh.host.terminalSize?.();
    if (!sh.host.tty || !size) { await io.write(2, "stty: standard input: Not a tty\n"); return 1; }
    if (args[0] === 'size') await io.write(1, `${size.height} ${size.width}\n`);
    return 0;
  },
  touch(args, _io, sh) {
    for (const f of args.filter(a => !a.startsWith('-'))) {
      const p = resolvePath(sh, f);
      if (!sh.host.files.has(p)) sh.host.files.set(p, '');
    }
    return 0;
  },
  async rm(args, io, sh) {
    const force = args.some(a => /^-[a-zA-Z]*f/.test(a));
    let status = 0;
    for (const f of args.filter(a => !a.startsWith('-'))) {
      const p = resolvePath(sh, f);
      if (sh.host.files.delete(p) || force) continue;
      await io.write(2, `rm: can't remove '${f}': No such file or directory\n`);
      status = 1;
    }
    return status;
  },
  test: (args, _io, sh) => (evaluateTest(args, sh) ? 0 : 1),
  async '['(args, io, sh) {
    if (args[args.length - 1] !== ']') {
      await io.write(2, '[: missing ]\n');
      return 2;
    }
    return evaluateTest(args.slice(0, -1), sh) ? 0 : 1;
  },
  async ps(_args, io, sh) {
    await io.write(1, formatProcessList(sh.host.processes?.() ?? [], sh.host.commandLine ?? 'ps'));
    return 0;
  },
  async hostname(_args, io, sh) {
    await io.write(1, `${sh.host.env.HOSTNAME ?? ''}\n`);
    return 0;
  },
  async env(_args, io, sh) {
    await io.write(1, Object.entries(sh.host.env).map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  },
  async printenv(args, io, sh) {
    if (args.length === 0) return builtins.env!(args, io, sh);
    const values = args.map(a => sh.host.env[a]);
    await io.write(1, values.filter(v => v !== undefined).map(v => `${v}\n`).join(''));
    return values.every(v => v !== undefined) ? 0 : 1;
  },
  async pwd(_args, io, sh) {
    await io.write(1, `${sh.cwd}\n`);
    return 0;
  },
  cd(args, _io, sh) {
    sh.cwd = resolvePath(sh, args[0] ?? '/');
    return 0;
  },
  async trap(args, io, sh) {
    const rest = args[0] === '--' ? args.slice(1) : args;
    if (rest.length < 2) return 0;
    const [action, ...signals] = rest;
    for (const s of signals) {
      const sig = signalNames[s.toUpperCase()];
      if (sig) sh.host.setTrap(sig, action === '-' ? undefined : action);
      else if (!['EXIT', '0', 'HUP', 'SIGHUP', '1', 'QUIT', 'SIGQUIT', '3', 'USR1', 'USR2', 'SIGUSR1', 'SIGUSR2'].includes(s.toUpperCase())) {
        await io.write(2, `trap: ${s}: bad trap\n`);
        return 1;
      }
    }
    return 0;
  },
};
