// A simulated process's standard input: the bytes an exec'd or attached client sends, read by
// the programs that read input (`cat`, an interactive `sh`). Reading waits for data; null is the
// end of input (the client closed stdin, or left).

import type { Readable } from 'node:stream';

export class SimInput {
  #chunks: Buffer[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  #interrupted: unknown;

  /** an exec's input is its client's; a container's (its config's `stdin`) has none until one attaches */
  constructor(source?: Readable) {
    if (source) this.follow(source, true);
  }

  /**
   * bytes from an attached client as they come; its end ends this input only when `endWithIt`
   * (an exec, or a container with `stdinOnce`): otherwise the next client to attach goes on
   * writing to the same open input, as a container's stdin stays open between attaches
   */
  follow(source: Readable, endWithIt: boolean): void {
    if (this.#ended) return;
    source.on('data', (d: Buffer) => { if (this.#ended) return; this.#chunks.push(d); this.#wake?.(); });
    if (!endWithIt) return;
    const end = () => { this.#ended = true; this.#wake?.(); };
    source.once('end', end);
    source.once('close', end);
  }

  /** its reader was killed: a read waiting, or to come, throws `reason` rather than wait on input */
  interrupt(reason: unknown): void {
    this.#interrupted = reason;
    this.#wake?.();
  }

  async #more(): Promise<boolean> {
    for (;;) {
      if (this.#interrupted !== undefined) throw this.#interrupted;
      if (this.#chunks.length > 0) return true;
      if (this.#ended) return false;
      await new Promise<void>(resolve => { this.#wake = () => { this.#wake = undefined; resolve(); }; });
    }
  }

  /** the next bytes as they came, or null at the end */
  async read(): Promise<Buffer | null> {
    return (await this.#more()) ? this.#chunks.shift()! : null;
  }

  /** the next line without its newline (the last may have none), or null at the end */
  async readLine(): Promise<string | null> {
    let line = '';
    for (;;) {
      if (!(await this.#more())) return line === '' ? null : line;
      const chunk = this.#chunks.shift()!;
      const nl = chunk.indexOf(10);
      if (nl < 0) { line += chunk.toString('utf8'); continue; }
      line += chunk.subarray(0, nl).toString('utf8');
      if (nl + 1 < chunk.length) this.#chunks.unshift(chunk.subarray(nl + 1));
      return line.replace(/\r$/, '');
    }
  }
}
