// Container output in the CRI log format: "<RFC 3339 time> <stream> <F|P> <text>\n", one entry
// per line. A line still open when output ends is written whole, as runtimes do at EOF. Each
// append opens the path anew, so a log the agent has rotated (renamed) is recreated in place.

import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Clock } from '../api/clock.ts';
import { rfc3339Nano } from '../api/time.ts';

export type LogStream = 'stdout' | 'stderr';

export function criLogLine(ms: number, stream: LogStream, text: string, partial = false): string {
  return `${rfc3339Nano(ms)} ${stream} ${partial ? 'P' : 'F'} ${text}\n`;
}

export class CriLogWriter {
  readonly #path: string;
  readonly #clock: Clock;
  readonly #open: Record<LogStream, string> = { stdout: '', stderr: '' };
  #madeDir = false;
  #tail: Promise<void> = Promise.resolve();

  constructor(path: string, clock: Clock) {
    this.#path = path;
    this.#clock = clock;
  }

  /** resolves once every complete line of text is in the file */
  write(stream: LogStream, text: string): Promise<void> {
    const pending = this.#open[stream] + text;
    const cut = pending.lastIndexOf('\n');
    this.#open[stream] = pending.slice(cut + 1);
    if (cut < 0) return this.#tail;
    const now = this.#clock.now();
    return this.#append(pending.slice(0, cut).split('\n').map(l => criLogLine(now, stream, l)).join(''));
  }

  /** writes lines left open (output that ended without a newline) as partial records, as containerd does */
  end(): Promise<void> {
    const now = this.#clock.now();
    let out = '';
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.#open[stream]) out += criLogLine(now, stream, this.#open[stream], true);
      this.#open[stream] = '';
    }
    return out ? this.#append(out) : this.#tail;
  }

  #append(data: string): Promise<void> {
    this.#tail = this.#tail.then(async () => {
      if (!this.#madeDir) {
        await mkdir(dirname(this.#path), { recursive: true });
        this.#madeDir = true;
      }
      await appendFile(this.#path, data);
    }).catch(() => {
      // a log that cannot be written loses lines, as a full disk does to a real runtime; the
      // container keeps running
    });
    return this.#tail;
  }
}
