// Answers from the host's resolvers kept for their TTL, at most `maxTtlSeconds` (a cluster's
// Corefile has `cache 30`), denials for the SOA's negative TTL (RFC 2308) under the same cap. A
// cached answer goes out with its TTLs lowered by the time it has been held, as a cache must.

import type { Answer, DecodedPacket } from 'dns-packet';

interface Entry { packet: DecodedPacket; storedMs: number; expiresMs: number }

export interface AnswerCacheOptions {
  maxTtlSeconds?: number;
  maxEntries?: number;
  nowMs?: () => number;
}

const hasTtl = (a: Answer): a is Answer & { ttl: number } => a.type !== 'OPT';

export class AnswerCache {
  private entries = new Map<string, Entry>();
  private maxTtl: number;
  private maxEntries: number;
  private now: () => number;

  constructor(o: AnswerCacheOptions = {}) {
    this.maxTtl = o.maxTtlSeconds ?? 30;
    this.maxEntries = o.maxEntries ?? 10_000;
    this.now = o.nowMs ?? Date.now;
  }

  static key(name: string, type: string, cls = 'IN'): string { return `${name.toLowerCase().replace(/\.$/, '')}|${type}|${cls}`; }

  /** how long a response may be kept, in seconds (0: not at all) */
  private ttlOf(p: DecodedPacket): number {
    if (p.flags === undefined || p.flag_tc) return 0;
    const rcode = (p as DecodedPacket & { rcode?: string }).rcode;
    if (rcode === 'NOERROR' && (p.answers ?? []).length) return Math.min(this.maxTtl, ...(p.answers ?? []).filter(hasTtl).map(a => a.ttl ?? 0));
    if (rcode === 'NXDOMAIN' || rcode === 'NOERROR') {
      const soa = (p.authorities ?? []).find(a => a.type === 'SOA');
      if (!soa || soa.type !== 'SOA') return 0;
      return Math.min(this.maxTtl, soa.ttl ?? 0, soa.data.minimum ?? 0);
    }
    return 0;
  }

  put(key: string, p: DecodedPacket): void {
    const ttl = this.ttlOf(p);
    if (ttl <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const now = this.now();
    this.entries.set(key, { packet: p, storedMs: now, expiresMs: now + ttl * 1000 });
  }

  /** a held response with its TTLs lowered by its age, or undefined */
  get(key: string): DecodedPacket | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = this.now();
    if (now >= e.expiresMs) { this.entries.delete(key); return undefined; }
    const age = Math.floor((now - e.storedMs) / 1000);
    const lower = (list?: Answer[]) => (list ?? []).map(a => (hasTtl(a) ? { ...a, ttl: Math.max(0, (a.ttl ?? 0) - age) } : a)) as Answer[];
    return { ...e.packet, answers: lower(e.packet.answers), authorities: lower(e.packet.authorities), additionals: lower(e.packet.additionals) };
  }

  get size(): number { return this.entries.size; }
}
