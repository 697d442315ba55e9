// The one ordered way into a SPDY session: bytes are cut into frames and handled one at a time,
// in arrival order, although handling a header-bearing frame waits for its block to inflate (the
// shared decompression context must see blocks in order, and a stream's DATA must not overtake
// its SYN_STREAM). The end of the transport is acted on only after the frames before it.

import { FrameParser, type Frame } from './frames.ts';

export interface InboxHandlers {
  frame(f: Frame): Promise<void> | void;
  /** bytes that are not SPDY/3, or a frame whose handling failed (a header block that does not inflate) */
  protocolError(): void;
  /** the transport ended and every frame before its end has been handled */
  ended(): void;
}

export class Inbox {
  private readonly parser = new FrameParser();
  private readonly queue: Frame[] = [];
  private readonly handlers: InboxHandlers;
  private processing = false;
  private transportEnded = false;
  private stopped = false;

  constructor(handlers: InboxHandlers) { this.handlers = handlers; }

  push(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.parser.push(chunk);
    } catch {
      this.handlers.protocolError();
      return;
    }
    if (frames.length === 0) return;
    this.queue.push(...frames);
    if (!this.processing) void this.drain();
  }

  /** the transport is gone: what was received still counts */
  end(): void {
    this.transportEnded = true;
    if (!this.processing) this.handlers.ended();
  }

  /** the session is over: whatever is still queued is dropped */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }

  private async drain(): Promise<void> {
    this.processing = true;
    try {
      while (this.queue.length > 0 && !this.stopped) await this.handlers.frame(this.queue.shift()!);
    } catch {
      this.handlers.protocolError();
    } finally {
      this.processing = false;
      if (this.transportEnded) this.handlers.ended();
    }
  }
}
