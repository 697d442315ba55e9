// A tiny subcommand framework over node:util parseArgs: every command documents its flags
// and answers --help.

import { parseArgs } from 'node:util';

export interface Flag {
  type: 'string' | 'boolean';
  default?: string | boolean;
  description: string;
  short?: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, Flag>;
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number | void>;
}


/** resolves at the first SIGTERM or SIGINT, the way every long-running command is stopped */
export function signalled(): Promise<void> {
  return new Promise(done => {
    const stop = () => { process.off('SIGTERM', stop); process.off('SIGINT', stop); done(); };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/** a bad flag value: printed as `Error: …` with exit code 2 */
export class UsageError extends Error {}

/** evaluates a flag's value, turning any failure into a UsageError */
export function flag<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function helpText(cmd: Command): string {
  const lines = [`${cmd.summary}`, '', `Usage:\n  ${cmd.usage}`, '', 'Flags:'];
  const all: Record<string, Flag> = { ...cmd.flags, help: { type: 'boolean', description: 'show this help', short: 'h' } };
  for (const [name, f] of Object.entries(all)) {
    const left = `${f.short ? `-${f.short}, ` : '    '}--${name}${f.type === 'string' ? ' string' : ''}`;
    const def = f.default !== undefined && f.default !== '' && f.default !== false ? ` (default ${JSON.stringify(f.default)})` : '';
    lines.push(`  ${left.padEnd(34)} ${f.description}${def}`);
  }
  return lines.join('\n') + '\n';
}

/** `-v=4` as pflag reads it (parseArgs would take "=4" as the value of -v) */
function splitShortValues(args: string[], flags: Record<string, Flag>): string[] {
  const valued = new Set(Object.values(flags).filter(f => f.type === 'string' && f.short).map(f => f.short));
  const out: string[] = [];
  for (const [i, a] of args.entries()) {
    if (a === '--') return [...out, ...args.slice(i)];
    const m = /^-([^-])=(.*)$/s.exec(a);
    if (m && valued.has(m[1])) out.push(`-${m[1]}`, m[2]!);
    else out.push(a);
  }
  return out;
}

export async function runCommand(cmd: Command, args: string[]): Promise<number> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; default?: string | boolean }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, f] of Object.entries(cmd.flags)) options[name] = { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.default !== undefined ? { default: f.default } : {}) };
  let parsed;
  try {
    parsed = parseArgs({ args: splitShortValues(args, cmd.flags), options, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n\n${helpText(cmd)}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(helpText(cmd));
    return 0;
  }
  try {
    return (await cmd.run(parsed.values as Record<string, string | boolean | undefined>, parsed.positionals)) ?? 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`Error: ${err.message}\n`);
    return 2;
  }
}
