// The channel framing of Kubernetes' WebSocket subprotocols, as data in and data out. Every
// message starts with the channel it belongs to: a byte in the binary protocols, an ASCII digit
// followed by base64 in the `base64.` ones. What differs between versions is what the error
// channel carries (text up to v3, a metav1 Status from v4), whether there is a resize channel
// (v3 on), and whether an end of stream can be said without closing the socket (v5: channel 255).

export const stdinChannel = 0;
export const stdoutChannel = 1;
export const stderrChannel = 2;
export const errorChannel = 3;
export const resizeChannel = 4;
/** v5's close signal: a message [255, n] says channel n has ended */
export const closeChannel = 255;

export interface ChannelProtocol {
  /** the Sec-WebSocket-Protocol token; '' when the client offered none */
  name: string;
  /** 1 for `channel.k8s.io` (and no protocol at all), else the `vN.` prefix */
  version: number;
  base64: boolean;
}

/** the remote-command protocols, the server's preference first (a client's own order decides ties) */
export const commandProtocolNames = [
  'v5.channel.k8s.io', 'v4.channel.k8s.io', 'v4.base64.channel.k8s.io', 'v3.channel.k8s.io', 'v3.base64.channel.k8s.io',
  'v2.channel.k8s.io', 'v2.base64.channel.k8s.io', 'channel.k8s.io', 'base64.channel.k8s.io',
] as const;

/**
 * The port-forward protocols the kubelet serves over WebSocket (channel 2i data, 2i+1 error per
 * port). `portforward.k8s.io` is what client-go's SPDY names, and some clients send it on
 * WebSocket too; the channel framing is the same binary one.
 */
export const portForwardProtocolNames = ['v4.channel.k8s.io', 'v4.base64.channel.k8s.io', 'portforward.k8s.io', 'channel.k8s.io', 'base64.channel.k8s.io'] as const;

export function parseChannelProtocol(name: string): ChannelProtocol | undefined {
  if (name === '' || name === 'portforward.k8s.io') return { name, version: 1, base64: false };
  const m = /^(?:v([2-5])\.)?(base64\.)?channel\.k8s\.io$/.exec(name);
  if (!m) return undefined;
  return { name, version: m[1] ? Number(m[1]) : 1, base64: !!m[2] };
}

/**
 * The subprotocol to answer with: the first the client offered that the server supports, as
 * kube-apiserver's handshake picks it; '' when the client offered none (the binary framing).
 * Undefined when it offered some and none is supported.
 */
export function chooseProtocol(offered: readonly string[], supported: readonly string[]): string | undefined {
  if (offered.length === 0) return '';
  return offered.find(p => supported.includes(p));
}

/** the Sec-WebSocket-Protocol header as a list (it may be repeated and comma-separated) */
export function offeredProtocols(header: string | string[] | undefined): string[] {
  const all = Array.isArray(header) ? header.join(',') : header ?? '';
  return all.split(',').map(s => s.trim()).filter(Boolean);
}

/** one message carrying `data` on `channel` */
export function encodeFrame(p: ChannelProtocol, channel: number, data: Uint8Array): Buffer | string {
  if (!p.base64) {
    const out = Buffer.allocUnsafe(data.length + 1);
    out[0] = channel;
    out.set(data, 1);
    return out;
  }
  return String.fromCharCode(48 + channel) + Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** v5's signal that this side will send nothing more on `channel` */
export function encodeClose(channel: number): Buffer {
  return Buffer.from([closeChannel, channel]);
}

export type Frame =
  | { type: 'data'; channel: number; data: Buffer }
  | { type: 'close'; channel: number }
  | { type: 'empty' };

export class FrameError extends Error {}

/** a received message: data on a channel, v5's close signal, or nothing (an empty message) */
export function decodeFrame(p: ChannelProtocol, message: Buffer | string): Frame {
  if (message.length === 0) return { type: 'empty' };
  if (!p.base64) {
    const b = typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
    if (b[0] === closeChannel && p.version >= 5) {
      if (b.length < 2) throw new FrameError('close signal without a channel');
      return { type: 'close', channel: b[1]! };
    }
    return { type: 'data', channel: b[0]!, data: b.subarray(1) };
  }
  const s = typeof message === 'string' ? message : message.toString('latin1');
  const channel = s.charCodeAt(0) - 48;
  const text = s.slice(1);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) throw new FrameError(`illegal base64 data on channel ${channel}`);
  return { type: 'data', channel, data: Buffer.from(text, 'base64') };
}

/** the resize channel's payload, `{"Width":80,"Height":24}` */
export function decodeResize(data: Buffer): { width: number; height: number } | undefined {
  try {
    const v = JSON.parse(data.toString('utf8')) as { Width?: unknown; Height?: unknown };
    if (typeof v.Width === 'number' && typeof v.Height === 'number') return { width: v.Width, height: v.Height };
  } catch { /* a malformed size is dropped, as the kubelet drops it */ }
  return undefined;
}

export function encodeResize(size: { width: number; height: number }): Buffer {
  return Buffer.from(JSON.stringify({ Width: size.width, Height: size.height }));
}

/** how much may wait unsent on a socket before a writer waits for it to go out */
export const sendWindowBytes = 4 * 1024 * 1024;
