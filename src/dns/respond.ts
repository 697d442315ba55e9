// One DNS message in, one out: the question answered by the cluster zone or the host's
// resolvers, its addresses shuffled, the reply fitted to what the client can take over UDP (512 bytes, or its EDNS buffer
// size) by leaving out the records that do not fit and setting TC, so that the client asks
// again over TCP, as miekg/dns's Truncate does for CoreDNS.

import * as packet from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import { answerQuestion, type Rcode, type ZoneOptions } from './answer.ts';

export interface Responder {
  zone: ZoneOptions;
  /** the host's resolvers' answer to a query outside the zone; undefined when none answers */
  forward(query: DecodedPacket): Promise<DecodedPacket | undefined>;
}

const rcodes: Record<string, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };
const opcodes: Record<string, number> = { QUERY: 0, IQUERY: 1, STATUS: 2, NOTIFY: 4, UPDATE: 5 };

interface Out { rcode: Rcode | 'FORMERR' | 'NOTIMP'; aa?: boolean; ra?: boolean; answers?: Answer[]; authorities?: Answer[]; additionals?: Answer[] }

function flags(query: { flags?: number; opcode?: string }, o: Out): number {
  const rd = (query.flags ?? 0) & packet.RECURSION_DESIRED;
  const opcode = (opcodes[query.opcode ?? 'QUERY'] ?? 0) << 11;
  return opcode | rd | (o.aa ? packet.AUTHORITATIVE_ANSWER : 0) | (o.ra ? packet.RECURSION_AVAILABLE : 0) | (rcodes[o.rcode] ?? 2);
}

/** the reply's records cut to `limit` bytes: answers, then authority, then additional, as many as fit; TC when any is left out */
function fit(p: Packet, limit: number): Buffer {
  const whole = packet.encode(p);
  if (whole.length <= limit) return whole;
  const opt = (p.additionals ?? []).filter(a => a.type === 'OPT');
  const cut: Packet = { ...p, flags: (p.flags ?? 0) | packet.TRUNCATED_RESPONSE, answers: [], authorities: [], additionals: [...opt] };
  for (const section of ['answers', 'authorities', 'additionals'] as const) {
    for (const rr of p[section] ?? []) {
      if (rr.type === 'OPT') continue;
      const list = cut[section]!;
      list.splice(section === 'additionals' ? list.length - opt.length : list.length, 0, rr);
      if (packet.encodingLength(cut) > limit) { list.splice(list.indexOf(rr), 1); return packet.encode(cut); }
    }
  }
  return packet.encode(cut);
}

/**
 * address records in a random order, CNAMEs first, as the `loadbalance` plugin of a cluster's
 * Corefile shuffles every reply, so that clients taking the first address spread over them
 */
export function shuffleAddresses(answers: Answer[]): Answer[] {
  if (answers.filter(a => a.type === 'A' || a.type === 'AAAA').length < 2) return answers;
  const shuffle = (list: Answer[]) => {
    for (let i = list.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [list[i], list[j]] = [list[j]!, list[i]!]; }
    return list;
  };
  return [
    ...answers.filter(a => a.type === 'CNAME'),
    ...shuffle(answers.filter(a => a.type === 'A' || a.type === 'AAAA')),
    ...shuffle(answers.filter(a => a.type === 'MX')),
    ...answers.filter(a => !['CNAME', 'A', 'AAAA', 'MX'].includes(a.type)),
  ];
}

/** the EDNS record a reply carries when the query had one: our buffer size, the DO bit echoed */
function optFor(query: DecodedPacket): Answer[] {
  const opt = (query.additionals ?? []).find(a => a.type === 'OPT');
  if (!opt || opt.type !== 'OPT') return [];
  return [{ type: 'OPT', name: '.', udpPayloadSize: 4096, extendedRcode: 0, ednsVersion: 0, flags: opt.flags & packet.DNSSEC_OK, flag_do: !!opt.flag_do, options: [] } as unknown as Answer];
}

/** the reply to one message; udp: the transport's size rule applies; undefined: no reply at all */
type Decoded = DecodedPacket & { opcode?: string; rcode?: string };

export async function respond(r: Responder, raw: Buffer, udp: boolean): Promise<Buffer | undefined> {
  let query: Decoded;
  try {
    query = packet.decode(raw);
  } catch {
    // a header we can read gets FORMERR; anything shorter is dropped
    if (raw.length < 12) return undefined;
    return packet.encode({ type: 'response', id: raw.readUInt16BE(0), flags: rcodes.FORMERR });
  }
  if (query.type === 'response') return undefined;
  const opt = (query.additionals ?? []).find(a => a.type === 'OPT');
  const limit = !udp ? 65535 : opt && opt.type === 'OPT' ? Math.min(4096, Math.max(512, opt.udpPayloadSize)) : 512;
  const questions = query.questions ?? [];
  const base = (o: Out): Packet => ({
    type: 'response', id: query.id, flags: flags(query, o), questions,
    answers: shuffleAddresses(o.answers ?? []), authorities: o.authorities ?? [], additionals: [...(o.additionals ?? []), ...optFor(query)],
  });
  if (query.opcode !== 'QUERY') return fit(base({ rcode: 'NOTIMP' }), limit);
  if (questions.length !== 1) return fit(base({ rcode: 'FORMERR' }), limit);
  const reply = await answerQuestion(r.zone, questions[0]);
  if (reply) return fit(base({ ...reply, aa: reply.authoritative }), limit);
  const res: Decoded | undefined = await r.forward(query);
  if (!res) return fit(base({ rcode: 'SERVFAIL', ra: true }), limit);
  return fit(base({
    rcode: (res.rcode as Rcode) ?? 'SERVFAIL', aa: res.flag_aa, ra: res.flag_ra,
    answers: res.answers, authorities: res.authorities, additionals: (res.additionals ?? []).filter(a => a.type !== 'OPT'),
  }), limit);
}
