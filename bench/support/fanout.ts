// Watch fan-out: W watchers on a few HTTP/2 connections, a writer at a fixed rate; each event
// carries its send time, so every delivery has a latency.

import http2 from 'node:http2';
import { connect, percentile, type TlsClient } from './load.ts';

export interface FanoutResult { deliveries: number; expected: number; p50ms: number; p99ms: number; maxms: number }

export async function runFanout(url: string, tls: TlsClient, opts: { watchers: number; perSecond: number; seconds: number; watchPath: string; postPath: string; connections?: number; protobuf?: boolean }): Promise<FanoutResult> {
  const sessions = Array.from({ length: opts.connections ?? 8 }, () => connect(url, tls));
  // a connection the server drops shows as deliveries missing from the result, not as a crash
  for (const s of sessions) s.on('error', () => {});
  const latencies: number[] = [];
  const streams: http2.ClientHttp2Stream[] = [];
  let ready = 0;
  for (let i = 0; i < opts.watchers; i++) {
    const s = sessions[i % sessions.length]!.request({ ':path': opts.watchPath, ...(opts.protobuf ? { accept: 'application/vnd.kubernetes.protobuf;stream=watch' } : {}) });
    s.on('response', () => { ready++; });
    s.on('data', (opts.protobuf ? sentTimesInFrames : sentTimes)(t => latencies.push(performance.timeOrigin + performance.now() - t)));
    s.on('error', () => {});
    streams.push(s);
  }
  while (ready < opts.watchers) await new Promise(r => setTimeout(r, 20));
  const writer = sessions[0]!;
  const total = opts.perSecond * opts.seconds;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / opts.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise(r => setTimeout(r, wait));
    const body = JSON.stringify({ metadata: { name: `f${i}` }, data: { sent: String(performance.timeOrigin + performance.now()) } });
    const req = writer.request({ ':method': 'POST', ':path': opts.postPath, 'content-type': 'application/json' });
    req.on('data', () => {});
    req.on('error', () => {});
    req.end(body);
  }
  const expected = total * opts.watchers;
  const deadline = performance.now() + 15_000;
  while (latencies.length < expected && performance.now() < deadline) await new Promise(r => setTimeout(r, 50));
  for (const s of streams) s.close();
  for (const s of sessions) s.close();
  latencies.sort((a, b) => a - b);
  return { deliveries: latencies.length, expected, p50ms: percentile(latencies, 50), p99ms: percentile(latencies, 99), maxms: latencies.at(-1) ?? 0 };
}

const sentField = Buffer.from('"sent":"');
// a protobuf map entry whose key is "sent": key (field 1, 4 bytes), then the value's tag (field 2)
const sentEntry = Buffer.from([0x0a, 0x04, 0x73, 0x65, 0x6e, 0x74, 0x12]);

/** the same from protobuf watch frames (a 4-byte length, then the event), found in the bytes */
function sentTimesInFrames(onSent: (t: number) => void): (chunk: Buffer) => void {
  let rest: Buffer | undefined;
  return chunk => {
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    while (buf.length - start >= 4) {
      const end = start + 4 + buf.readUInt32BE(start);
      if (end > buf.length) break;
      const at = buf.indexOf(sentEntry, start);
      if (at >= 0 && at < end) {
        const from = at + sentEntry.length + 1;
        const t = Number(buf.toString('latin1', from, from + buf[at + sentEntry.length]!));
        if (t) onSent(t);
      }
      start = end;
    }
    rest = start < buf.length ? buf.subarray(start) : undefined;
  };
}

/**
 * The send time of every event line, found in the raw bytes: one client process reads all the
 * watchers' streams, and decoding and parsing every line would make it, not the server under
 * test, the bottleneck.
 */
function sentTimes(onSent: (t: number) => void): (chunk: Buffer) => void {
  let rest: Buffer | undefined;
  return chunk => {
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    let nl;
    while ((nl = buf.indexOf(0x0a, start)) >= 0) {
      const at = buf.indexOf(sentField, start);
      if (at >= 0 && at < nl) {
        const from = at + sentField.length;
        const t = Number(buf.toString('latin1', from, buf.indexOf(0x22, from)));
        if (t) onSent(t);
      }
      start = nl + 1;
    }
    rest = start < buf.length ? buf.subarray(start) : undefined;
  };
}
