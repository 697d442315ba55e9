// A question about the cluster zone turned into the answer CoreDNS's kubernetes plugin gives:
// authoritative records named as the question spelled them; NXDOMAIN for a name the cluster does
// not have, NOERROR without answers (NODATA) for one it has without records of that type, both
// with the zone's SOA; SERVFAIL for a missing name until the informers have listed everything.
// Names outside the zone, and reverse names of addresses the cluster does not know, are not
// answered here (undefined): they go to the host's resolvers, as the `fallthrough in-addr.arpa
// ip6.arpa` of a cluster's Corefile sends them on.

import { isIP } from 'node:net';
import type { Answer, Question, RecordType } from 'dns-packet';
import { findRecords, nameServers, reverseNames, type Found, type LookupOptions } from './lookup.ts';
import { isReverseZoneName, parseRequest, reverseAddress, trimZone } from './names.ts';

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED';

export interface Reply {
  rcode: Rcode;
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
}

export interface ZoneOptions extends LookupOptions {
  /** the cluster domain, lower case, no final dot */
  zone: string;
  /** the TTL of every record (CoreDNS's default 5) */
  ttl: number;
  /** this server's own addresses (and port), to find its Service for NS records */
  localIPs: string[];
  localPort?: number;
  /** a name outside the zone resolved by the host's resolvers (CNAME targets); undefined when that fails */
  upstream(name: string, type: RecordType): Promise<Answer[] | undefined>;
}

/** the schema version of the DNS specification for Kubernetes this server follows */
export const dnsSchemaVersion = '1.1.0';

const reply = (rcode: Rcode, answers: Answer[] = [], additionals: Answer[] = [], authorities: Answer[] = []): Reply => ({ rcode, authoritative: true, answers, authorities, additionals });

export function soaRecord(o: ZoneOptions, zone: string): Answer {
  return {
    name: zone, type: 'SOA', class: 'IN', ttl: Math.min(o.ttl, 300),
    data: { mname: `ns.dns.${zone}`, rname: `hostmaster.${zone}`, serial: o.index.serial >>> 0, refresh: 7200, retry: 1800, expire: 86400, minimum: o.ttl },
  };
}

/** what a name has, per query type (A and AAAA see the name servers' own name; SRV leaves out ExternalName CNAMEs) */
function records(o: ZoneOptions, base: string, zone: string, type: string): Found[] | undefined {
  if (base === 'ns.dns') {
    return nameServers(o.index, o.localIPs, zone, o.localPort).filter(n => (type === 'A' && isIP(n.ip) === 4) || (type === 'AAAA' && isIP(n.ip) === 6)).map(n => ({ host: n.ip, port: 0, target: n.name }));
  }
  const r = parseRequest(base);
  const found = r && findRecords(o, r, zone);
  return type === 'SRV' && found ? found.filter(f => isIP(f.host)) : found;
}

/** A or AAAA answers; an ExternalName's CNAME followed inside the zone or through the host's resolvers */
async function addresses(o: ZoneOptions, qname: string, zone: string, type: 'A' | 'AAAA', previous: Answer[]): Promise<Answer[] | undefined> {
  const lname = qname.toLowerCase();
  const base = trimZone(lname, o.zone);
  const found = base === undefined ? undefined : records(o, base, zone, type);
  if (!found) return undefined;
  const out: Answer[] = [];
  for (const f of found) {
    const family = isIP(f.host);
    if (family === 0) {
      const target = f.host.replace(/\.$/, '');
      const t = target.toLowerCase();
      if (t === lname || t.endsWith(`.${lname}`) || previous.length > 7) continue;
      const cname: Answer = { name: qname, type: 'CNAME', class: 'IN', ttl: o.ttl, data: target };
      if (previous.some(p => p.type === 'CNAME' && p.name.toLowerCase() === lname)) continue;
      if (trimZone(t, o.zone) !== undefined) {
        const next = await addresses(o, target, zone, type, [...previous, cname]);
        if (next?.length) out.push(cname, ...next);
        continue;
      }
      const outside = await o.upstream(target, type);
      if (outside) out.push(cname, ...outside);
      continue;
    }
    if ((family === 4) !== (type === 'A')) continue;
    if (out.some(a => a.type === type && a.data === f.host)) continue;
    out.push({ name: qname, type, class: 'IN', ttl: o.ttl, data: f.host });
  }
  return out;
}

function srv(o: ZoneOptions, qname: string, found: Found[]): { answers: Answer[]; additionals: Answer[] } {
  // every record has priority 0 and an equal share of 100 as its weight, at least 1
  const weight = Math.max(1, Math.floor((100 / (100 * found.length)) * 100));
  const answers: Answer[] = [];
  const additionals: Answer[] = [];
  for (const f of found) {
    if (f.port === -1) continue;
    if (!answers.some(a => a.type === 'SRV' && a.data.target === f.target && a.data.port === f.port)) {
      answers.push({ name: qname, type: 'SRV', class: 'IN', ttl: o.ttl, data: { priority: 0, weight, port: f.port, target: f.target } });
    }
    if (!additionals.some(a => a.type !== 'OPT' && a.name === f.target && a.data === f.host)) {
      additionals.push({ name: f.target, type: isIP(f.host) === 6 ? 'AAAA' : 'A', class: 'IN', ttl: o.ttl, data: f.host });
    }
  }
  return { answers, additionals };
}

async function inZone(o: ZoneOptions, q: Question, base: string, zone: string): Promise<Reply> {
  const qname = q.name;
  let answers: Answer[] | undefined = [];
  let additionals: Answer[] = [];
  switch (q.type) {
    case 'A':
    case 'AAAA':
      answers = await addresses(o, qname, zone, q.type, []);
      break;
    case 'TXT':
      if (base === 'dns-version') answers = [{ name: qname, type: 'TXT', class: 'IN', ttl: 28800, data: dnsSchemaVersion }];
      else answers = records(o, base, zone, 'TXT') && [];
      break;
    case 'CNAME': {
      const found = records(o, base, zone, 'CNAME');
      const first = found?.[0];
      answers = found && (first && !isIP(first.host) ? [{ name: qname, type: 'CNAME', class: 'IN', ttl: o.ttl, data: first.host.replace(/\.$/, '') }] : []);
      break;
    }
    case 'SRV': {
      const found = records(o, base, zone, 'SRV');
      if (found) ({ answers, additionals } = srv(o, qname, found)); else answers = undefined;
      break;
    }
    case 'SOA':
      // only the apex has one; any other name answers NODATA
      answers = base === '' ? [soaRecord(o, zone)] : [];
      break;
    case 'AXFR' as RecordType:
    case 'IXFR' as RecordType:
      return { rcode: 'REFUSED', authoritative: false, answers: [], authorities: [], additionals: [] };
    case 'NS':
      if (base === '') {
        const servers = nameServers(o.index, o.localIPs, zone, o.localPort);
        answers = servers.filter((s, i) => servers.findIndex(x => x.name === s.name) === i).map(s => ({ name: qname, type: 'NS', class: 'IN', ttl: o.ttl, data: s.name }));
        additionals = servers.map(s => ({ name: s.name, type: isIP(s.ip) === 6 ? 'AAAA' : 'A', class: 'IN', ttl: o.ttl, data: s.ip }));
        break;
      }
      // elsewhere NS is as any other type
      answers = (await addresses(o, qname, zone, 'A', [])) && [];
      break;
    default:
      // whether the name exists decides NXDOMAIN or NODATA, as an A lookup would find it
      answers = (await addresses(o, qname, zone, 'A', [])) && [];
  }
  if (answers === undefined) return reply(o.index.synced ? 'NXDOMAIN' : 'SERVFAIL', [], [], [soaRecord(o, zone)]);
  if (answers.length === 0) return reply('NOERROR', [], [], [soaRecord(o, zone)]);
  return reply('NOERROR', answers, additionals);
}

/** the cluster's answer to a question, or undefined when the host's resolvers answer it */
export async function answerQuestion(o: ZoneOptions, q: Question): Promise<Reply | undefined> {
  const lname = q.name.toLowerCase().replace(/\.$/, '');
  const base = trimZone(lname, o.zone);
  if (base !== undefined) {
    // the zone as the question spelled it: answers keep the asker's case
    const zone = q.name.replace(/\.$/, '').slice(lname.length - o.zone.length);
    return inZone(o, { ...q, name: q.name.replace(/\.$/, '') }, base, zone);
  }
  if (q.type !== 'PTR' || !isReverseZoneName(lname)) return undefined;
  const ip = reverseAddress(lname);
  const names = ip ? reverseNames(o.index, ip, o.zone) : [];
  if (!names.length) return undefined;
  return reply('NOERROR', names.map(n => ({ name: q.name.replace(/\.$/, ''), type: 'PTR', class: 'IN', ttl: o.ttl, data: n })));
}
