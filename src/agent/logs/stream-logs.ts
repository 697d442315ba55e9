// A container's log file as text for `kubectl logs`: the last tailLines lines or everything
// since a time, with the record time in front when timestamps are asked for, cut at limitBytes,
// and with follow, new lines as the runtime appends them until the container stops or the
// reader goes away. Reads poll the file: runtimes append and may reopen it, and a poll by size
// sees both.

import { open, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { criLogParser, type LogLine } from './cri-log.ts';
import type { LogOptions } from './log-options.ts';

export interface StreamTarget {
  out: Writable;
  /** true once the reader has gone */
  closed(): boolean;
}

const format = (l: LogLine, o: LogOptions) => `${o.timestamps ? `${l.time} ` : ''}${l.text}${l.partial ? '' : '\n'}`;

async function readFrom(path: string, offset: number): Promise<{ text: string; size: number }> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return { text: '', size: offset };
  // a file that shrank was rotated or truncated: start over
  const from = st.size < offset ? 0 : offset;
  if (st.size === from) return { text: '', size: from };
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(st.size - from);
    await fh.read(buf, 0, buf.length, from);
    return { text: buf.toString('utf8'), size: st.size };
  } finally {
    await fh.close();
  }
}

export async function streamLogs(path: string, o: LogOptions, running: () => boolean, target: StreamTarget, pollMs = 200): Promise<void> {
  const parser = criLogParser();
  let budget = o.limitBytes ?? Infinity;
  const write = (lines: LogLine[]): boolean => {
    for (const l of lines) {
      if (o.since !== undefined && Date.parse(l.time) < o.since) continue;
      let s = format(l, o);
      if (Buffer.byteLength(s) > budget) s = Buffer.from(s).subarray(0, budget).toString('utf8');
      budget -= Buffer.byteLength(s);
      target.out.write(s);
      if (budget <= 0) return false;
    }
    return true;
  };
  let { text, size } = await readFrom(path, 0);
  // without follow the file is all there is: a last line without a newline is shown as it is
  let lines = [...parser.push(text), ...(o.follow ? [] : parser.end())];
  if (o.tailLines !== undefined) lines = o.tailLines === 0 ? [] : lines.slice(-o.tailLines);
  if (!write(lines) || !o.follow) return;
  for (;;) {
    if (target.closed()) return;
    const stillRunning = running();
    ({ text, size } = await readFrom(path, size));
    if (text && !write(parser.push(text))) return;
    // the last lines of a container that stopped are read before the stream ends
    if (!stillRunning) { write(parser.end()); return; }
    await new Promise(r => setTimeout(r, pollMs));
  }
}
