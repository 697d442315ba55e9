// Runs parsed scripts against a ShellHost. Traps run between commands, as a shell runs them
// once its foreground command returns; a loop that passes no time is slowed to one iteration a
// second, so a busy loop looks like a running process rather than freezing the sim.

import { posix } from 'node:path';
import type { Command, CommandList, SimpleCommand, Word } from './ast.ts';
import { builtins, type CommandIo, type ShellAccess } from './builtins.ts';
import { ScriptExit, type OutputStream, type ShellHost } from './host.ts';
import { parseScript } from './parse.ts';
import { ShellSyntaxError } from './tokens.ts';
import { ArithRuntimeError, ArithSyntaxError, evaluateArith } from './arith.ts';

type Sink = { kind: 'stream'; stream: OutputStream } | { kind: 'file'; path: string } | { kind: 'null' };

const shells = new Set(['sh', 'bash', 'ash', 'dash']);
const busyLoopPauseMs = 1000;

export class Interpreter implements ShellAccess {
  readonly host: ShellHost;
  cwd: string;
  #status = 0;
  readonly #vars: Record<string, string> = {};

  constructor(host: ShellHost, cwd = '/') {
    this.host = host;
    this.cwd = cwd || '/';
  }

  /** the program's exit status: its last command's, `exit N`'s, or the signal's that ended it */
  async run(program: CommandList): Promise<number> {
    try {
      await this.#list(program);
      this.host.check();
      return this.#status;
    } catch (err) {
      if (err instanceof ScriptExit) return err.status;
      throw err;
    }
  }

  /** `sh -c SCRIPT`: its own exit ends only it; a signal ending the process goes on up */
  async runScript(src: string): Promise<number> {
    let program: CommandList;
    try {
      program = parseScript(src);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      // not a script the sim can follow: behave as an unknown program would
      return this.#unknown();
    }
    try {
      return await this.#list(program);
    } catch (err) {
      if (!(err instanceof ScriptExit)) throw err;
      this.host.check();
      return err.status;
    }
  }

  async runArgv(argv: string[], io: CommandIo): Promise<number> {
    const [name = '', ...args] = argv;
    const base = name.includes('/') ? posix.basename(name) : name;
    if (shells.has(base)) {
      const c = args.indexOf('-c');
      if (c >= 0 && args[c + 1] !== undefined) return this.runScript(args[c + 1]!);
      return this.host.stdin ? this.#interactive(io) : this.#unknown();
    }
    if (base === 'exit') throw new ScriptExit(args[0] === undefined ? this.#status : (Number.parseInt(args[0], 10) & 255));
    if (base === 'exec') {
      if (args.length === 0) return 0;
      throw new ScriptExit(await this.runArgv(args, io));
    }
    if (base === 'env' && args.length > 0 && !args[0]!.startsWith('-')) {
      // `env A=1 cmd`: the assignments are not interpreted, the command is
      const cmd = args.findIndex(a => !a.includes('='));
      if (cmd >= 0) return this.runArgv(args.slice(cmd), io);
    }
    const builtin = builtins[base];
    if (builtin) return builtin(args, io, this);
    return this.#unknown();
  }

  /** `sh` reading its commands from stdin: a line at a time, prompting on a terminal, to the end of input or `exit` */
  async #interactive(io: CommandIo): Promise<number> {
    for (;;) {
      if (this.host.tty) await io.write(1, `${this.cwd} # `);
      const line = await this.host.stdin!.readLine();
      if (line === null) return this.#status;
      // a terminal echoes what is typed
      if (this.host.tty) await io.write(1, `${line}\r\n`);
      let program: CommandList;
      try {
        program = parseScript(line);
      } catch (err) {
        if (!(err instanceof ShellSyntaxError)) throw err;
        continue; // a line the sim cannot follow does nothing here
      }
      try {
        this.#status = await this.#list(program);
      } catch (err) {
        if (!(err instanceof ScriptExit)) throw err;
        this.host.check();
        return err.status; // `exit`: the interactive shell ends with it
      }
    }
  }

  async #unknown(): Promise<number> {
    if (this.host.unknownCommand === 'succeed') return 0;
    return (await this.host.daemon()) ? 0 : 143;
  }

  async #list(list: CommandList): Promise<number> {
    for (const item of list) {
      let status = await this.#negated(item.negate, item.first);
      for (const next of item.rest) {
        if ((next.op === '&&') !== (status === 0)) continue;
        status = await this.#negated(next.negate, next.command);
      }
    }
    return this.#status;
  }

  async #negated(negate: boolean, cmd: Command): Promise<number> {
    const status = await this.#command(cmd);
    this.#status = negate ? (status === 0 ? 1 : 0) : status;
    await this.#runTraps();
    return this.#status;
  }

  async #runTraps(): Promise<void> {
    for (const action of this.host.takeTraps()) {
      const saved = this.#status;
      try {
        await this.#list(parseScript(action));
      } catch (err) {
        if (!(err instanceof ShellSyntaxError)) throw err;
      }
      this.#status = saved;
    }
  }

  async #command(cmd: Command): Promise<number> {
    this.host.check();
    switch (cmd.kind) {
      case 'simple': return this.#simple(cmd);
      case 'group': return this.#list(cmd.body);
      case 'forever': return this.#unknownForever();
      case 'if': {
        for (const b of cmd.branches) if ((await this.#list(b.cond)) === 0) return this.#list(b.body);
        return cmd.otherwise ? this.#list(cmd.otherwise) : 0;
      }
      case 'for': {
        let status = 0;
        for (const w of cmd.items) {
          const v = this.#expand(w);
          if (v === undefined) continue;
          this.#vars[cmd.name] = v;
          status = await this.#list(cmd.body);
        }
        return status;
      }
      case 'loop': {
        let status = 0;
        let spun = false;
        for (;;) {
          const cond = await this.#list(cmd.cond);
          if ((cond === 0) === cmd.until) return status;
          if (spun) await this.host.sleep(busyLoopPauseMs);
          const slept = this.host.sleptMs();
          status = await this.#list(cmd.body);
          spun = this.host.sleptMs() === slept;
        }
      }
    }
  }

  async #unknownForever(): Promise<number> {
    return (await this.host.daemon()) ? 0 : 143;
  }

  async #simple(cmd: SimpleCommand): Promise<number> {
    // `i=0`, `i=$((i+1))`: a command of assignments only sets shell variables
    const assignments = cmd.words.map(assignmentOf);
    if (assignments.length > 0 && cmd.redirects.length === 0 && assignments.every(a => a !== undefined)) {
      for (const a of assignments) this.#vars[a!.name] = this.#expand(a!.value) ?? '';
      return 0;
    }
    const argv = cmd.words.map(w => this.#expand(w)).filter((w): w is string => w !== undefined);
    const sinks: Record<1 | 2, Sink> = { 1: { kind: 'stream', stream: 'stdout' }, 2: { kind: 'stream', stream: 'stderr' } };
    for (const r of cmd.redirects) {
      if (typeof r.target === 'number') { sinks[r.fd] = sinks[r.target]; continue; }
      sinks[r.fd] = this.#fileSink(this.#expand(r.target) ?? '', r.append);
    }
    const io: CommandIo = {
      write: async (fd, data) => {
        const sink = sinks[fd];
        if (sink.kind === 'stream') await this.host.output(sink.stream, data);
        // files hold bytes as latin1 text (one character per byte), so an archive survives them
        else if (sink.kind === 'file') this.host.files.set(sink.path, (this.host.files.get(sink.path) ?? '') + (typeof data === 'string' ? data : data.toString('latin1')));
        this.host.check();
      },
    };
    if (argv.length === 0) return 0;
    return this.runArgv(argv, io);
  }

  #fileSink(target: string, append: boolean): Sink {
    if (target === '/dev/null') return { kind: 'null' };
    if (target === '/dev/stdout' || target === '/proc/1/fd/1') return { kind: 'stream', stream: 'stdout' };
    if (target === '/dev/stderr' || target === '/proc/1/fd/2') return { kind: 'stream', stream: 'stderr' };
    const path = posix.resolve(this.cwd, target);
    if (!append || !this.host.files.has(path)) this.host.files.set(path, '');
    return { kind: 'file', path };
  }

  /** the word's value; undefined when it is unquoted and expands to nothing (and so vanishes) */
  #expand(w: Word): string | undefined {
    let out = '';
    for (const p of w.parts) out += 'text' in p ? p.text : 'param' in p ? this.#param(p.param) : this.#arith(p.arith);
    return out === '' && !w.quoted ? undefined : out;
  }

  // busybox sh ends the script (status 2) on a division by zero
  #arith(expr: string): string {
    try {
      return evaluateArith(expr, name => this.#param(name));
    } catch (err) {
      if (err instanceof ArithRuntimeError || err instanceof ArithSyntaxError) throw new ScriptExit(2);
      throw err;
    }
  }

  #param(name: string): string {
    if (name === '?') return String(this.#status);
    if (name === '$') return '1';
    if (name === '#') return '0';
    if (name === '0') return 'sh';
    // the shell sets PWD to where it starts, and cd moves it
    if (name === 'PWD') return this.cwd;
    return this.#vars[name] ?? this.host.env[name] ?? '';
  }
}

/** NAME=value as a word: the name and the value's word, or undefined for any other word */
function assignmentOf(w: Word): { name: string; value: Word } | undefined {
  const first = w.parts[0];
  const m = first && 'text' in first ? /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(first.text) : null;
  if (!m) return undefined;
  return { name: m[1]!, value: { ...w, parts: [{ text: m[2]! }, ...w.parts.slice(1)] } };
}
