// The query of the agent's /exec, /attach and /portForward endpoints, read as the kubelet reads
// it (input/output/error/tty as "1", `command` repeated, `port` repeated or comma-separated),
// refusals in its words.

import type { CommandStreamOptions } from '../../streaming/streams.ts';

export class StreamOptionsError extends Error {}

export function commandOptions(q: URLSearchParams): CommandStreamOptions {
  const on = (name: string) => q.get(name) === '1';
  const tty = on('tty');
  const opts = { stdin: on('input'), stdout: on('output'), stderr: on('error') && !tty, tty };
  if (!opts.stdin && !opts.stdout && !opts.stderr) throw new StreamOptionsError('you must specify at least 1 of stdin, stdout, stderr');
  return opts;
}

export function forwardedPorts(q: URLSearchParams): number[] {
  const given = q.getAll('port');
  if (given.length === 0) throw new StreamOptionsError('query parameter "port" is required');
  const ports: number[] = [];
  for (const s of given) {
    if (s === '') throw new StreamOptionsError('query parameter "port" cannot be empty');
    for (const p of s.split(',')) {
      if (!/^\d+$/.test(p) || Number(p) > 65535) throw new StreamOptionsError(`unable to parse ${JSON.stringify(s)} as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: ${/^\d+$/.test(p) ? 'value out of range' : 'invalid syntax'}`);
      if (Number(p) < 1) throw new StreamOptionsError(`port ${JSON.stringify(s)} must be > 0`);
      ports.push(Number(p));
    }
  }
  return ports;
}
