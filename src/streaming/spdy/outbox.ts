// The one ordered way out of a SPDY session. Frames leave in the order they were queued, even
// when a frame's bytes come from an asynchronous step (compressing a header block), and a full
// transport holds the queue until it drains, so a fast writer cannot pile up memory.

import type { Duplex } from 'node:stream';

type Item = Buffer | (() => Promise<Buffer>);

export class Outbox {
  private tail: Promise<void> = Promise.resolve();
  private abandoned = false;
  private readonly transport: Duplex;

  constructor(transport: Duplex) { this.transport = transport; }

  /** queues a frame; settles once the transport has taken it (or the session is gone) */
  send(item: Item): Promise<void> {
    const run = this.tail.then(async () => {
      if (this.abandoned) return;
      const bytes = typeof item === 'function' ? await item() : item;
      if (this.abandoned || this.transport.writableEnded || this.transport.destroyed) return;
      if (!this.transport.write(bytes)) await this.drained();
    });
    this.tail = run.catch(() => {});
    return this.tail;
  }

  /** ends the transport after everything queued so far */
  end(): Promise<void> {
    const run = this.tail.then(() => {
      if (!this.transport.writableEnded && !this.transport.destroyed) this.transport.end();
    });
    this.tail = run.catch(() => {});
    return this.tail;
  }

  /** the session is gone: what is still queued is dropped */
  abandon(): void { this.abandoned = true; }

  private drained(): Promise<void> {
    // 'close' too: a transport destroyed while full never drains
    return new Promise(resolve => {
      const done = () => { this.transport.off('drain', done); this.transport.off('close', done); resolve(); };
      this.transport.on('drain', done);
      this.transport.on('close', done);
    });
  }
}
