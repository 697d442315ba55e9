// One SPDY stream as a node Duplex: what the peer sends on it is readable, what is written goes
// out as DATA frames, end() half-closes with FIN. The session does the framing and flow control;
// this class keeps the stream's state (who has closed which direction, whether it was reset) and
// turns a consumer that stops reading into backpressure on the connection.

import { Duplex } from 'node:stream';
import type { SpdyHeaders } from './header-block.ts';
import { RstStatus } from './frames.ts';

/** what a stream asks of its session (an interface, so the session module may import this one) */
export interface StreamHost {
  /** sends data, split and paced by the flow-control windows; fin half-closes after it */
  sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void>;
  sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void>;
  sendHeaders(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void>;
  sendReset(stream: SpdyStream, status: number): void;
  /** the consumer read what was buffered: the session may resume the connection and open windows */
  readResumed(stream: SpdyStream, wasHolding: boolean): void;
  /** both directions are closed or the stream was reset */
  streamClosed(stream: SpdyStream): void;
}

// enough buffered per stream that a consumer between reads does not pause the whole connection
const READ_HIGH_WATER = 256 * 1024;

export class SpdyStream extends Duplex {
  readonly id: number;
  /** the SYN_STREAM's headers: the peer's for a stream it opened, ours for one we opened */
  readonly headers: SpdyHeaders;
  /** the peer's SYN_REPLY headers, for a stream we opened */
  replyHeaders: SpdyHeaders | undefined;
  /** flow-control windows: what we may still send, and what the peer sent that we have not yet acknowledged */
  sendWindow: number;
  unacknowledged = 0;
  /** the readable side is over its high-water mark: the session holds the connection */
  holding = false;
  localClosed = false;
  remoteClosed = false;
  /** the RST_STREAM status that ended the stream, from either side */
  resetStatus: number | undefined;
  private replied = false;
  private readonly host: StreamHost;

  constructor(host: StreamHost, id: number, headers: SpdyHeaders, sendWindow: number, opts: { localClosed?: boolean; replied?: boolean } = {}) {
    super({ readableHighWaterMark: READ_HIGH_WATER, allowHalfOpen: true });
    this.host = host;
    this.id = id;
    this.headers = headers;
    this.sendWindow = sendWindow;
    this.localClosed = opts.localClosed ?? false;
    this.replied = opts.replied ?? false;
    if (this.localClosed) this.end();
  }

  /** accepts a stream the peer opened (SYN_REPLY); data written before this waits for it */
  reply(headers: SpdyHeaders = {}): void {
    if (this.replied || this.resetStatus !== undefined) return;
    this.replied = true;
    void this.host.sendReply(this, headers, false);
  }

  /** declines a stream the peer opened */
  refuse(): void { this.reset(RstStatus.RefusedStream); }

  /** sends more headers on the stream (HEADERS frame) */
  sendHeaders(headers: SpdyHeaders): Promise<void> { return this.host.sendHeaders(this, headers, false); }

  /** ends both directions at once (RST_STREAM; CANCEL unless another status is given) */
  reset(status: number = RstStatus.Cancel): void {
    if (this.resetStatus !== undefined) return;
    const open = !(this.localClosed && this.remoteClosed);
    this.resetStatus = status;
    if (open) this.host.sendReset(this, status);
    this.closeBoth();
  }

  // --- called by the session ---

  /** true when this data filled the readable buffer and the session should hold the connection */
  onData(data: Buffer): boolean {
    if (this.remoteClosed) return false;
    this.unacknowledged += data.length;
    if (data.length === 0 || this.push(data) || this.holding) return false;
    this.holding = true;
    return true;
  }

  onRemoteFin(): void {
    if (this.remoteClosed) return;
    this.remoteClosed = true;
    this.push(null);
    // nothing more comes for this stream, so holding the connection for its reader would only
    // stall the others (and a reader that drains an ended stream is never asked to read again)
    if (this.holding) {
      this.holding = false;
      this.host.readResumed(this, true);
    }
    this.maybeClosed();
  }

  onReset(status: number): void {
    if (this.resetStatus !== undefined) return;
    this.resetStatus = status;
    this.emit('reset', status);
    this.closeBoth();
  }

  /** the connection is gone: nothing more arrives, nothing more can be sent */
  onSessionClosed(): void {
    if (this.resetStatus === undefined && !(this.localClosed && this.remoteClosed)) this.resetStatus = RstStatus.Cancel;
    this.closeBoth();
  }

  get isReplied(): boolean { return this.replied; }

  private closeBoth(): void {
    this.localClosed = true;
    if (!this.remoteClosed) {
      this.remoteClosed = true;
      this.push(null);
    }
    this.maybeClosed();
  }

  private maybeClosed(): void {
    if (this.localClosed && this.remoteClosed) this.host.streamClosed(this);
  }

  // --- Duplex ---

  override _read(): void {
    const wasHolding = this.holding;
    this.holding = false;
    if (wasHolding || this.unacknowledged > 0) this.host.readResumed(this, wasHolding);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    // a stream reset or a connection gone drops what is written, as a closed socket would not
    // (the consumer learns of it from 'reset' or the session's close, not from write errors)
    if (this.localClosed) { cb(); return; }
    this.host.sendData(this, chunk, false).then(() => cb(), cb);
  }

  // destroy() (by the user, or by a for-await over the readable side that finished while
  // writing went on) abandons both directions: the peer is told with RST_STREAM rather than
  // left waiting for a FIN that will never come
  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (!(this.localClosed && this.remoteClosed)) this.reset(RstStatus.Cancel);
    cb(err);
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (this.localClosed) { cb(); return; }
    this.host.sendData(this, Buffer.alloc(0), true).then(() => {
      this.localClosed = true;
      this.maybeClosed();
      cb();
    }, cb);
  }
}
