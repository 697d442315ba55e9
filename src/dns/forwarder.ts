// Names outside the cluster zone go to the host's resolvers (the nameservers of its resolv.conf,
// as a cluster's Corefile has `forward . /etc/resolv.conf`): one tried after another, in a random
// order, over UDP, again over TCP when the answer comes back truncated. Answers are cached.

import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { isIPv6 } from 'node:net';
import * as packet from 'dns-packet';
import type { Answer, DecodedPacket, Packet, RecordType } from 'dns-packet';
import { AnswerCache } from './answer-cache.ts';

export interface Upstream { host: string; port: number }

export interface ForwarderOptions {
  servers: Upstream[];
  /** per server and attempt; default 2 s */
  timeoutMs?: number;
  cache?: AnswerCache;
}

function udpExchange(u: Upstream, query: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = createSocket(isIPv6(u.host) ? 'udp6' : 'udp4');
    const id = query.readUInt16BE(0);
    const done = (err?: Error, msg?: Buffer) => { clearTimeout(timer); sock.close(); if (err) reject(err); else resolve(msg!); };
    const timer = setTimeout(() => done(new Error(`no answer from ${u.host}:${u.port} within ${timeoutMs} ms`)), timeoutMs);
    sock.on('error', err => done(err));
    // a datagram with another id is not the answer (a late one, or spoofed)
    sock.on('message', msg => { if (msg.length >= 12 && msg.readUInt16BE(0) === id) done(undefined, msg); });
    sock.send(query, u.port, u.host);
  });
}

function tcpExchange(u: Upstream, query: Buffer, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: u.host, port: u.port });
    let buf = Buffer.alloc(0);
    const done = (err?: Error, msg?: Buffer) => { clearTimeout(timer); sock.destroy(); if (err) reject(err); else resolve(msg!); };
    const timer = setTimeout(() => done(new Error(`no answer from ${u.host}:${u.port} over TCP within ${timeoutMs} ms`)), timeoutMs);
    sock.on('error', err => done(err));
    sock.on('connect', () => { const len = Buffer.alloc(2); len.writeUInt16BE(query.length); sock.write(Buffer.concat([len, query])); });
    sock.on('data', d => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) done(undefined, buf.subarray(2, 2 + buf.readUInt16BE(0)));
    });
    sock.on('end', () => done(new Error(`${u.host}:${u.port} closed the TCP connection without an answer`)));
  });
}

export class Forwarder {
  private servers: Upstream[];
  private timeoutMs: number;
  readonly cache: AnswerCache;

  constructor(o: ForwarderOptions) {
    this.servers = o.servers;
    this.timeoutMs = o.timeoutMs ?? 2000;
    this.cache = o.cache ?? new AnswerCache();
  }

  /** one question asked of the upstream servers; undefined when none answers */
  async exchange(q: Packet): Promise<DecodedPacket | undefined> {
    const order = [...this.servers];
    for (let i = order.length - 1; i > 0; i--) { const j = randomInt(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
    for (const u of order) {
      const query = packet.encode({ ...q, id: randomInt(65536) });
      try {
        let res = packet.decode(await udpExchange(u, query, this.timeoutMs));
        if (res.flag_tc) res = packet.decode(await tcpExchange(u, query, this.timeoutMs));
        return res;
      } catch { /* the next server */ }
    }
    return undefined;
  }

  /** a client's query answered from the cache or upstream */
  async forward(query: DecodedPacket): Promise<DecodedPacket | undefined> {
    const q = query.questions![0];
    const key = AnswerCache.key(q.name, q.type, q.class);
    const held = this.cache.get(key);
    if (held) return held;
    const res = await this.exchange({
      type: 'query', flags: query.flags! & (packet.RECURSION_DESIRED | packet.CHECKING_DISABLED),
      questions: [q], additionals: (query.additionals ?? []).filter(a => a.type === 'OPT'),
    });
    if (res) this.cache.put(key, res);
    return res;
  }

  /** the answers for a name (a CNAME's target); undefined when no server answers */
  async resolve(name: string, type: RecordType): Promise<Answer[] | undefined> {
    const res = await this.forward({ type: 'query', id: 0, flags: packet.RECURSION_DESIRED, questions: [{ name, type, class: 'IN' }], answers: [], authorities: [], additionals: [] } as unknown as DecodedPacket);
    return res ? res.answers ?? [] : undefined;
  }
}
