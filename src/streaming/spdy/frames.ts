// SPDY/3 frames as bytes (draft-mbelshe-httpbis-spdy-00 section 2.2 and 2.6; SPDY/3.1 adds
// session flow control as WINDOW_UPDATE on stream 0). Control frames start with the control bit,
// version 3 and a type; data frames with a 31-bit stream id. Both carry 8 flag bits and a 24-bit
// length. Header blocks travel compressed: this module only places the compressed bytes, the
// session compresses and inflates them in frame order (header-block.ts).

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;
export const MAX_FRAME_LENGTH = 0xffffff;
export const DEFAULT_WINDOW = 64 * 1024;
export const SETTINGS_INITIAL_WINDOW_SIZE = 7;

export const FrameType = {
  SynStream: 1, SynReply: 2, RstStream: 3, Settings: 4, Ping: 6, GoAway: 7, Headers: 8, WindowUpdate: 9,
} as const;

/** RST_STREAM status codes */
export const RstStatus = {
  ProtocolError: 1, InvalidStream: 2, RefusedStream: 3, UnsupportedVersion: 4, Cancel: 5,
  InternalError: 6, FlowControlError: 7, StreamInUse: 8, StreamAlreadyClosed: 9, FrameTooLarge: 11,
} as const;

/** GOAWAY status codes */
export const GoAwayStatus = { Ok: 0, ProtocolError: 1, InternalError: 2 } as const;

export type Frame =
  | { type: 'data'; streamId: number; flags: number; data: Buffer }
  | { type: 'syn_stream'; streamId: number; associatedId: number; priority: number; flags: number; block: Buffer }
  | { type: 'syn_reply'; streamId: number; flags: number; block: Buffer }
  | { type: 'rst_stream'; streamId: number; status: number }
  | { type: 'settings'; flags: number; entries: { flags: number; id: number; value: number }[] }
  | { type: 'ping'; id: number }
  | { type: 'goaway'; lastGoodId: number; status: number }
  | { type: 'headers'; streamId: number; flags: number; block: Buffer }
  | { type: 'window_update'; streamId: number; delta: number }
  | { type: 'unknown'; frameType: number; flags: number };

export class FrameError extends Error {}

function control(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME_LENGTH) throw new FrameError('frame too large');
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24 | payload.length) >>> 0, 4);
  return Buffer.concat([head, payload]);
}

function u32s(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
}

/** the bytes of a frame; header-bearing frames take their block already compressed */
export function encodeFrame(f: Frame): Buffer {
  switch (f.type) {
    case 'data': {
      const head = u32s(f.streamId & 0x7fffffff, ((f.flags & 0xff) << 24 | f.data.length) >>> 0);
      if (f.data.length > MAX_FRAME_LENGTH) throw new FrameError('frame too large');
      return Buffer.concat([head, f.data]);
    }
    case 'syn_stream': {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(f.streamId & 0x7fffffff, 0);
      fixed.writeUInt32BE(f.associatedId & 0x7fffffff, 4);
      fixed[8] = (f.priority & 0x7) << 5;
      return control(FrameType.SynStream, f.flags, Buffer.concat([fixed, f.block]));
    }
    case 'syn_reply': return control(FrameType.SynReply, f.flags, Buffer.concat([u32s(f.streamId & 0x7fffffff), f.block]));
    case 'headers': return control(FrameType.Headers, f.flags, Buffer.concat([u32s(f.streamId & 0x7fffffff), f.block]));
    case 'rst_stream': return control(FrameType.RstStream, 0, u32s(f.streamId & 0x7fffffff, f.status));
    case 'settings': {
      const body = [u32s(f.entries.length)];
      for (const e of f.entries) body.push(u32s(((e.flags & 0xff) << 24 | (e.id & 0xffffff)) >>> 0, e.value));
      return control(FrameType.Settings, f.flags, Buffer.concat(body));
    }
    case 'ping': return control(FrameType.Ping, 0, u32s(f.id));
    case 'goaway': return control(FrameType.GoAway, 0, u32s(f.lastGoodId & 0x7fffffff, f.status));
    case 'window_update': return control(FrameType.WindowUpdate, 0, u32s(f.streamId & 0x7fffffff, f.delta & 0x7fffffff));
    case 'unknown': throw new FrameError('cannot encode an unknown frame');
  }
}

function need(payload: Buffer, n: number, what: string): void {
  if (payload.length < n) throw new FrameError(`${what} frame too short`);
}

function decodeControl(type: number, flags: number, p: Buffer): Frame {
  switch (type) {
    case FrameType.SynStream:
      need(p, 10, 'SYN_STREAM');
      return { type: 'syn_stream', streamId: p.readUInt32BE(0) & 0x7fffffff, associatedId: p.readUInt32BE(4) & 0x7fffffff, priority: p[8]! >> 5, flags, block: p.subarray(10) };
    case FrameType.SynReply:
      need(p, 4, 'SYN_REPLY');
      return { type: 'syn_reply', streamId: p.readUInt32BE(0) & 0x7fffffff, flags, block: p.subarray(4) };
    case FrameType.Headers:
      need(p, 4, 'HEADERS');
      return { type: 'headers', streamId: p.readUInt32BE(0) & 0x7fffffff, flags, block: p.subarray(4) };
    case FrameType.RstStream:
      need(p, 8, 'RST_STREAM');
      return { type: 'rst_stream', streamId: p.readUInt32BE(0) & 0x7fffffff, status: p.readUInt32BE(4) };
    case FrameType.Settings: {
      need(p, 4, 'SETTINGS');
      const n = p.readUInt32BE(0);
      need(p, 4 + n * 8, 'SETTINGS');
      const entries = [];
      for (let i = 0; i < n; i++) {
        const word = p.readUInt32BE(4 + i * 8);
        entries.push({ flags: word >>> 24, id: word & 0xffffff, value: p.readUInt32BE(8 + i * 8) });
      }
      return { type: 'settings', flags, entries };
    }
    case FrameType.Ping:
      need(p, 4, 'PING');
      return { type: 'ping', id: p.readUInt32BE(0) };
    case FrameType.GoAway:
      // SPDY/2 peers send no status; SPDY/3 always does
      need(p, 4, 'GOAWAY');
      return { type: 'goaway', lastGoodId: p.readUInt32BE(0) & 0x7fffffff, status: p.length >= 8 ? p.readUInt32BE(4) : 0 };
    case FrameType.WindowUpdate:
      need(p, 8, 'WINDOW_UPDATE');
      return { type: 'window_update', streamId: p.readUInt32BE(0) & 0x7fffffff, delta: p.readUInt32BE(4) & 0x7fffffff };
    default:
      // the draft asks receivers to ignore control frames they do not know
      return { type: 'unknown', frameType: type, flags };
  }
}

/** cuts a byte stream into frames; feed it chunks as they arrive */
export class FrameParser {
  private pending: Buffer[] = [];
  private size = 0;
  // bytes the next frame needs, so a large frame arriving in pieces is joined once, not per piece
  private needed = 8;

  push(chunk: Buffer): Frame[] {
    this.pending.push(chunk);
    this.size += chunk.length;
    const frames: Frame[] = [];
    if (this.size < this.needed) return frames;
    let buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    let at = 0;
    while (buf.length - at >= 8) {
      const word0 = buf.readUInt32BE(at);
      const word1 = buf.readUInt32BE(at + 4);
      const length = word1 & 0xffffff;
      if (buf.length - at < 8 + length) { this.needed = 8 + length; break; }
      const payload = buf.subarray(at + 8, at + 8 + length);
      const flags = word1 >>> 24;
      if (word0 & 0x80000000) {
        const version = (word0 >>> 16) & 0x7fff;
        if (version !== SPDY_VERSION) throw new FrameError(`unsupported SPDY version ${version}`);
        frames.push(decodeControl(word0 & 0xffff, flags, payload));
      } else {
        frames.push({ type: 'data', streamId: word0 & 0x7fffffff, flags, data: payload });
      }
      at += 8 + length;
    }
    buf = buf.subarray(at);
    if (buf.length < 8) this.needed = 8;
    this.pending = buf.length > 0 ? [buf] : [];
    this.size = buf.length;
    return frames;
  }
}
