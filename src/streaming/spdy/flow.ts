// SPDY/3.1 flow control for one session, for peers that keep windows and for those that do not.
// The Go library kubectl, the kubelet and containerd use (moby/spdystream) neither sends nor reads
// SETTINGS or WINDOW_UPDATE: holding to the 64 KiB default window with it would stall every
// transfer larger than that, and a WINDOW_UPDATE reaching it just after it closed its socket
// makes its kernel answer with a reset that discards what we had not read yet. So windows come
// into play only once the peer has shown it keeps them (a SETTINGS or WINDOW_UPDATE frame, which
// this session sends first): from then on the peer's windows pace our DATA, and what our
// consumers read is acknowledged (per stream; for the session, as 3.1 adds, on arrival), and a
// stream whose reader falls behind is held at its window. Without windows, such a stream pauses the
// whole connection until its reader catches up.

import type { Duplex } from 'node:stream';
import { DEFAULT_WINDOW, SETTINGS_INITIAL_WINDOW_SIZE, type Frame } from './frames.ts';
import type { SpdyStream } from './stream.ts';

/** what we let the peer send ahead of our reads, per stream and per session */
export const RECEIVE_WINDOW = 1024 * 1024;

export class FlowControl {
  /** the window a new stream starts with on the peer's side */
  peerInitialWindow = DEFAULT_WINDOW;
  private peerKeepsWindows = false;
  private sessionSendWindow = DEFAULT_WINDOW;
  private sessionUnacknowledged = 0;
  private waiters: (() => void)[] = [];
  private holdingStreams = 0;
  private paused = false;
  private readonly transport: Duplex;
  private readonly send: (f: Frame) => void;

  constructor(transport: Duplex, send: (f: Frame) => void) {
    this.transport = transport;
    this.send = send;
  }

  /** our receive windows, announced first: a peer that keeps windows may then send more ahead */
  announce(): void {
    this.send({ type: 'settings', flags: 0, entries: [{ flags: 0, id: SETTINGS_INITIAL_WINDOW_SIZE, value: RECEIVE_WINDOW }] });
    this.send({ type: 'window_update', streamId: 0, delta: RECEIVE_WINDOW - DEFAULT_WINDOW });
  }

  onSettings(entries: { id: number; value: number }[], streams: Iterable<SpdyStream>): void {
    for (const e of entries) {
      if (e.id !== SETTINGS_INITIAL_WINDOW_SIZE) continue;
      const delta = e.value - this.peerInitialWindow;
      this.peerInitialWindow = e.value;
      for (const s of streams) s.sendWindow += delta;
      this.peerKeepsWindows = true;
    }
    this.wake();
  }

  onWindowUpdate(delta: number, stream: SpdyStream | undefined, sessionWide: boolean): void {
    this.peerKeepsWindows = true;
    this.acknowledge(stream);
    if (sessionWide) this.sessionSendWindow += delta;
    else if (stream) stream.sendWindow += delta;
    this.wake();
  }

  /** how many of `wanted` bytes may go now, waiting while a window is shut; 0 once `open` says no */
  async allowance(stream: SpdyStream, wanted: number, open: () => boolean): Promise<number> {
    if (!this.peerKeepsWindows || wanted === 0) return wanted;
    while (open() && (stream.sendWindow <= 0 || this.sessionSendWindow <= 0)) {
      await new Promise<void>(resolve => this.waiters.push(resolve));
    }
    if (!open()) return 0;
    const n = Math.min(wanted, stream.sendWindow, this.sessionSendWindow);
    stream.sendWindow -= n;
    this.sessionSendWindow -= n;
    return n;
  }

  /** wakes senders waiting for a window (a window opened, or a stream or the session closed) */
  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /**
   * DATA arrived, for a stream we know or for none. The session's window reopens on arrival (each
   * stream's own window bounds what its reader may leave unread), a stream's as its reader reads,
   * so one reader falling behind never stalls the other streams.
   */
  received(stream: SpdyStream | undefined, data: Buffer): void {
    this.sessionUnacknowledged += data.length;
    this.acknowledge();
    if (stream?.onData(data)) this.hold();
    else if (stream && !stream.holding) this.acknowledge(stream);
  }

  /** the stream's reader took what was buffered */
  readResumed(stream: SpdyStream, wasHolding: boolean): void {
    if (wasHolding && this.holdingStreams > 0) {
      this.holdingStreams--;
      if (this.holdingStreams === 0 && this.paused) { this.paused = false; this.transport.resume(); }
    }
    this.acknowledge(stream);
  }

  /** a stream closed: whatever it held is released */
  released(stream: SpdyStream): void {
    this.wake();
    if (stream.holding) { stream.holding = false; this.readResumed(stream, true); }
  }

  // a peer that keeps windows stops at the window it was given: holding back the acknowledgement
  // is enough, and the connection stays open for the other streams. One that does not is only
  // stopped by pausing the connection.
  private hold(): void {
    this.holdingStreams++;
    if (!this.peerKeepsWindows && !this.paused) { this.paused = true; this.transport.pause(); }
  }

  /** acknowledges what was read once half a window is outstanding, so the peer never waits long */
  private acknowledge(stream?: SpdyStream): void {
    if (!this.peerKeepsWindows) return;
    if (stream && !stream.remoteClosed && stream.unacknowledged >= RECEIVE_WINDOW / 2) {
      this.send({ type: 'window_update', streamId: stream.id, delta: stream.unacknowledged });
      stream.unacknowledged = 0;
    }
    if (this.sessionUnacknowledged >= RECEIVE_WINDOW / 2) {
      this.send({ type: 'window_update', streamId: 0, delta: this.sessionUnacknowledged });
      this.sessionUnacknowledged = 0;
    }
  }
}
