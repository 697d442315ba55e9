// A SPDY/3.1 session over any byte Duplex: a socket handed over by an HTTP upgrade, or a
// WebSocket carrying SPDY frames. Frames go out through one ordered queue (the header compression
// context must see blocks in the order the peer will inflate them) and come in through one
// ordered loop. Either side may open streams: the side that accepted the connection uses even ids,
// the other odd ones. Flow control is flow.ts's.

import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { FLAG_FIN, FLAG_UNIDIRECTIONAL, GoAwayStatus, RstStatus, encodeFrame, type Frame } from './frames.ts';
import { FlowControl } from './flow.ts';
import { HeaderCompressor, HeaderDecompressor, type SpdyHeaders } from './header-block.ts';
import { SpdyStream, type StreamHost } from './stream.ts';
import { Outbox } from './outbox.ts';
import { Inbox } from './inbox.ts';

export interface SpdySessionOptions {
  /** the side that accepted the connection (its streams and pings are even) */
  server: boolean;
  /** bytes already read past the HTTP upgrade (node's `head`) */
  head?: Buffer;
  /** closes the session after this long without a frame either way (the kubelet's streaming idle timeout); none by default */
  idleTimeoutMs?: number;
}

const MAX_DATA_FRAME = 64 * 1024;

export class SpdySession extends EventEmitter implements StreamHost {
  readonly closed: Promise<void>;
  private readonly transport: Duplex;
  private readonly server: boolean;
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly out: Outbox;
  private readonly streams = new Map<number, SpdyStream>();
  private readonly replies = new Map<number, { resolve: (s: SpdyStream) => void; reject: (e: Error) => void }>();
  private readonly pings = new Map<number, (err?: Error) => void>();
  private readonly inbox: Inbox;
  private nextStreamId: number;
  private nextPingId: number;
  private lastPeerStreamId = 0;
  private readonly flow: FlowControl;
  private idle: NodeJS.Timeout | undefined;
  private goingAway = false;
  private isClosed = false;
  private resolveClosed!: () => void;

  constructor(transport: Duplex, opts: SpdySessionOptions) {
    super();
    this.transport = transport;
    this.server = opts.server;
    this.nextStreamId = opts.server ? 2 : 1;
    this.nextPingId = opts.server ? 2 : 1;
    this.out = new Outbox(transport);
    this.flow = new FlowControl(transport, f => { if (!this.isClosed) this.out.send(encodeFrame(f)); });
    this.closed = new Promise(resolve => { this.resolveClosed = resolve; });
    this.inbox = new Inbox({ frame: f => this.handle(f), protocolError: () => this.protocolError(), ended: () => this.shutdown() });
    transport.on('data', (chunk: Buffer) => this.receive(chunk));
    // frames already received are handled before the session counts as closed
    const gone = () => this.inbox.end();
    transport.on('end', gone);
    transport.on('close', gone);
    transport.on('error', gone);
    this.flow.announce();
    if (opts.idleTimeoutMs) {
      const ms = opts.idleTimeoutMs;
      this.idle = setTimeout(() => void this.close(), ms);
      this.idle.unref();
    }
    if (opts.head && opts.head.length > 0) this.receive(opts.head);
  }

  get isOpen(): boolean { return !this.isClosed; }

  /** opens a stream and resolves once the peer accepts it (SYN_REPLY); rejects if it refuses */
  openStream(headers: SpdyHeaders, opts: { fin?: boolean } = {}): Promise<SpdyStream> {
    if (this.isClosed || this.goingAway) return Promise.reject(new Error('SPDY session is closed'));
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    const stream = new SpdyStream(this, id, headers, this.flow.peerInitialWindow, { localClosed: opts.fin, replied: true });
    this.streams.set(id, stream);
    const accepted = new Promise<SpdyStream>((resolve, reject) => this.replies.set(id, { resolve, reject }));
    this.out.send(async () => encodeFrame({
      type: 'syn_stream', streamId: id, associatedId: 0, priority: 0, flags: opts.fin ? FLAG_FIN : 0,
      block: await this.compressor.compress(headers),
    }));
    return accepted;
  }

  /** round trip of a PING, in milliseconds */
  ping(): Promise<number> {
    const id = this.nextPingId;
    this.nextPingId = (this.nextPingId + 2) % 0x80000000 || (this.server ? 2 : 1);
    const start = performance.now();
    return new Promise((resolve, reject) => {
      if (this.isClosed) { reject(new Error('SPDY session is closed')); return; }
      this.pings.set(id, err => err ? reject(err) : resolve(performance.now() - start));
      this.out.send(encodeFrame({ type: 'ping', id }));
    });
  }

  /** says GOAWAY, lets queued frames out, then ends the connection */
  close(status: number = GoAwayStatus.Ok): Promise<void> {
    if (!this.isClosed && !this.goingAway) {
      this.goingAway = true;
      this.out.send(encodeFrame({ type: 'goaway', lastGoodId: this.lastPeerStreamId, status }));
      void this.out.end().then(() => {
        // a peer that never closes its side must not hold the socket open forever
        setTimeout(() => this.transport.destroy(), 5000).unref();
      });
    }
    return this.closed;
  }

  /** drops the connection at once */
  destroy(): void {
    this.transport.destroy();
    this.shutdown();
  }

  // --- incoming ---

  private receive(chunk: Buffer): void {
    this.idle?.refresh();
    this.inbox.push(chunk);
  }

  private async handle(f: Frame): Promise<void> {
    switch (f.type) {
      case 'data': {
        const stream = this.streams.get(f.streamId);
        this.flow.received(stream, f.data);
        if (stream && f.flags & FLAG_FIN) stream.onRemoteFin();
        return;
      }
      case 'syn_stream': return this.onSynStream(f, await this.decompressor.decompress(f.block));
      case 'syn_reply': {
        const headers = await this.decompressor.decompress(f.block);
        const stream = this.streams.get(f.streamId);
        const waiter = this.replies.get(f.streamId);
        if (!stream || !waiter) return;
        this.replies.delete(f.streamId);
        stream.replyHeaders = headers;
        waiter.resolve(stream);
        if (f.flags & FLAG_FIN) stream.onRemoteFin();
        return;
      }
      case 'headers': {
        const headers = await this.decompressor.decompress(f.block);
        const stream = this.streams.get(f.streamId);
        if (!stream) return;
        stream.emit('headers', headers);
        if (f.flags & FLAG_FIN) stream.onRemoteFin();
        return;
      }
      case 'rst_stream': {
        const stream = this.streams.get(f.streamId);
        const waiter = this.replies.get(f.streamId);
        if (waiter) { this.replies.delete(f.streamId); waiter.reject(new Error(`stream refused (RST_STREAM status ${f.status})`)); }
        stream?.onReset(f.status);
        return;
      }
      case 'settings':
        this.flow.onSettings(f.entries, this.streams.values());
        return;
      case 'window_update':
        this.flow.onWindowUpdate(f.delta, this.streams.get(f.streamId), f.streamId === 0);
        return;
      case 'ping':
        // our pings come back with our parity; the peer's are echoed
        if ((f.id & 1) === (this.server ? 0 : 1)) { this.pings.get(f.id)?.(); this.pings.delete(f.id); }
        else this.out.send(encodeFrame({ type: 'ping', id: f.id }));
        return;
      case 'goaway':
        this.goingAway = true;
        this.emit('goaway', f.status);
        return;
      case 'unknown': return;
    }
  }

  private onSynStream(f: Extract<Frame, { type: 'syn_stream' }>, headers: SpdyHeaders): void {
    const peerParity = this.server ? 1 : 0;
    if ((f.streamId & 1) !== peerParity || f.streamId <= this.lastPeerStreamId) {
      this.out.send(encodeFrame({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.ProtocolError }));
      return;
    }
    this.lastPeerStreamId = f.streamId;
    if (this.goingAway) {
      this.out.send(encodeFrame({ type: 'rst_stream', streamId: f.streamId, status: RstStatus.RefusedStream }));
      return;
    }
    const stream = new SpdyStream(this, f.streamId, headers, this.flow.peerInitialWindow, { localClosed: (f.flags & FLAG_UNIDIRECTIONAL) !== 0 });
    this.streams.set(f.streamId, stream);
    if (f.flags & FLAG_FIN) stream.onRemoteFin();
    if (this.listenerCount('stream') === 0) stream.refuse();
    else this.emit('stream', stream);
  }

  // --- StreamHost ---

  async sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void> {
    this.idle?.refresh();
    if (!stream.isReplied) stream.reply();
    let at = 0;
    do {
      if (stream.localClosed || this.isClosed) return;
      const n = await this.flow.allowance(stream, Math.min(data.length - at, MAX_DATA_FRAME), () => !stream.localClosed && !this.isClosed);
      if (n === 0 && at < data.length) return;
      const last = at + n >= data.length;
      await this.out.send(encodeFrame({ type: 'data', streamId: stream.id, flags: fin && last ? FLAG_FIN : 0, data: data.subarray(at, at + n) }));
      at += n;
    } while (at < data.length);
  }

  sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void> {
    return this.out.send(async () => encodeFrame({ type: 'syn_reply', streamId: stream.id, flags: fin ? FLAG_FIN : 0, block: await this.compressor.compress(headers) }));
  }

  sendHeaders(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void> {
    return this.out.send(async () => encodeFrame({ type: 'headers', streamId: stream.id, flags: fin ? FLAG_FIN : 0, block: await this.compressor.compress(headers) }));
  }

  sendReset(stream: SpdyStream, status: number): void {
    if (!this.isClosed) void this.out.send(encodeFrame({ type: 'rst_stream', streamId: stream.id, status }));
  }

  readResumed(stream: SpdyStream, wasHolding: boolean): void {
    if (!this.isClosed) this.flow.readResumed(stream, wasHolding);
  }

  streamClosed(stream: SpdyStream): void {
    this.streams.delete(stream.id);
    this.flow.released(stream);
  }

  private protocolError(): void {
    if (this.isClosed) return;
    this.out.send(encodeFrame({ type: 'goaway', lastGoodId: this.lastPeerStreamId, status: GoAwayStatus.ProtocolError }));
    void this.out.end().then(() => this.destroy());
  }

  private shutdown(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.idle);
    this.inbox.stop();
    this.out.abandon();
    // the peer is gone or going: our side ends too (an HTTP server's sockets stay half-open otherwise)
    if (!this.transport.writableEnded && !this.transport.destroyed) this.transport.end();
    setTimeout(() => this.transport.destroy(), 5000).unref();
    for (const [id, w] of this.replies) { this.replies.delete(id); w.reject(new Error('SPDY session closed')); }
    for (const s of [...this.streams.values()]) s.onSessionClosed();
    this.streams.clear();
    for (const answer of this.pings.values()) answer(new Error('SPDY session closed'));
    this.pings.clear();
    this.flow.wake();
    this.compressor.close();
    this.decompressor.close();
    this.resolveClosed();
    this.emit('close');
  }
}
