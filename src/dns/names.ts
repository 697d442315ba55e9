// How a name inside the cluster zone reads, as CoreDNS's kubernetes plugin reads it:
//   service.namespace.svc.zone, endpoint.service.namespace.svc.zone,
//   _port._protocol.service.namespace.svc.zone, a-b-c-d.namespace.pod.zone
// and the reverse names of addresses (in-addr.arpa, ip6.arpa).

import { isIP } from 'node:net';

export interface RecordRequest {
  podOrSvc: '' | 'svc' | 'pod';
  namespace: string;
  service: string;
  endpoint: string;
  port: string;
  protocol: string;
}

/** the labels before the zone; the name and zone lower case, without the final dot */
export function trimZone(name: string, zone: string): string | undefined {
  if (name === zone) return '';
  return name.endsWith(`.${zone}`) ? name.slice(0, -zone.length - 1) : undefined;
}

const stripUnderscore = (s: string) => (s.startsWith('_') ? s.slice(1) : s);

/** the request a name in the zone makes; undefined for a name the zone cannot hold (NXDOMAIN) */
export function parseRequest(base: string): RecordRequest | undefined {
  const r: RecordRequest = { podOrSvc: '', namespace: '', service: '', endpoint: '', port: '', protocol: '' };
  // the apex and the two subtrees exist without records of their own
  if (base === '' || base === 'svc' || base === 'pod') return r;
  const segs = base.split('.');
  let last = segs.length - 1;
  const kind = segs[last];
  if (kind !== 'svc' && kind !== 'pod') return undefined;
  r.podOrSvc = kind;
  if (--last < 0) return r;
  r.namespace = segs[last];
  if (--last < 0) return r;
  r.service = segs[last];
  if (--last < 0) return r;
  // one label more names an endpoint, two a port and protocol; more is a name no record has
  if (last === 0) r.endpoint = segs[0];
  else if (last === 1) { r.protocol = stripUnderscore(segs[1]); r.port = stripUnderscore(segs[0]); }
  else return undefined;
  return r;
}

/** an endpoint's name under its Service: its hostname, else its address with dashes */
export function endpointHostname(ip: string, hostname?: string): string {
  if (hostname) return hostname;
  if (ip.includes('.')) return ip.replaceAll('.', '-');
  if (ip.includes(':')) {
    const h = ip.replaceAll(':', '-');
    return h.endsWith('-') ? `${h}0` : h;
  }
  return '';
}

/** the address a pod name spells (1-2-3-4, or an IPv6 address with dashes) */
export function podNameAddress(label: string): string | undefined {
  const ip = (label.split('-').length - 1 === 3 && !label.includes('--')) ? label.replaceAll('-', '.') : label.replaceAll('-', ':');
  return isIP(ip) ? ip : undefined;
}

/** the address a reverse name spells in full (four labels under in-addr.arpa, 32 nibbles under ip6.arpa) */
export function reverseAddress(name: string): string | undefined {
  if (name.endsWith('.in-addr.arpa')) {
    const parts = name.slice(0, -'.in-addr.arpa'.length).split('.');
    if (parts.length !== 4 || !parts.every(p => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) < 256)) return undefined;
    return parts.reverse().join('.');
  }
  if (name.endsWith('.ip6.arpa')) {
    const nibbles = name.slice(0, -'.ip6.arpa'.length).split('.');
    if (nibbles.length !== 32 || !nibbles.every(n => /^[0-9a-f]$/.test(n))) return undefined;
    const hex = nibbles.reverse().join('');
    return canonicalIPv6(hex.match(/.{4}/g)!.join(':'));
  }
  return undefined;
}

/** an IPv6 address as Go prints it (RFC 5952: lower case, leading zeros dropped, the longest zero run as ::) */
export function canonicalIPv6(ip: string): string {
  const url = new URL(`http://[${ip}]/`);
  return url.hostname.slice(1, -1);
}

export function isReverseZoneName(name: string): boolean {
  return name === 'in-addr.arpa' || name === 'ip6.arpa' || name.endsWith('.in-addr.arpa') || name.endsWith('.ip6.arpa');
}
