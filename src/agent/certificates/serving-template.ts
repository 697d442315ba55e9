// What the node's serving certificate must name, as the kubelet's serverTLSBootstrap asks for it:
// system:node:<name> in system:nodes, its host names (Hostname, InternalDNS, ExternalDNS) as DNS
// names and its addresses (InternalIP, ExternalIP, and a Hostname that is an IP) as IP names,
// sorted. Without an IP the kubelet asks for nothing yet (its AllowDNSOnlyNodeCSR gate is off by
// default), and neither does the agent.

import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

export interface NodeAddress { type: string; address: string }

export interface ServingTemplate { commonName: string; organizations: string[]; dnsNames: string[]; ips: string[] }

export const kubeletServingSigner = 'kubernetes.io/kubelet-serving';
/** an ECDSA key, as the kubelet makes: no key encipherment (the kubelet asks for it with RSA keys only) */
export const servingUsages = ['digital signature', 'server auth'];

export function servingTemplate(nodeName: string, addresses: NodeAddress[]): ServingTemplate | undefined {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const { type, address } of addresses) {
    if (!address) continue;
    if (type === 'Hostname') (isIP(address) ? ips : dns).add(address);
    else if (type === 'InternalIP' || type === 'ExternalIP') { if (isIP(address)) ips.add(address); }
    else if (type === 'InternalDNS' || type === 'ExternalDNS') dns.add(address);
  }
  if (!ips.size) return undefined;
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], dnsNames: [...dns].sort(), ips: [...ips].sort() };
}

/** the names a certificate carries: DNS names and IPs from its subjectAltName, its subject's CN and O */
export function certificateNames(certPem: string): { commonName: string; organizations: string[]; dnsNames: string[]; ips: string[] } {
  const c = new X509Certificate(certPem);
  const subject = c.subject.split('\n');
  const alt = (c.subjectAltName ?? '').split(', ').filter(Boolean);
  return {
    commonName: subject.find(l => l.startsWith('CN='))?.slice(3) ?? '',
    organizations: subject.filter(l => l.startsWith('O=')).map(l => l.slice(2)),
    dnsNames: alt.filter(a => a.startsWith('DNS:')).map(a => a.slice(4)),
    ips: alt.filter(a => a.startsWith('IP Address:')).map(a => canonicalIp(a.slice(11))),
  };
}

/** IPv6 as Go prints it (lower case, zeros compressed), so names compare as text */
function canonicalIp(ip: string): string {
  if (!ip.includes(':')) return ip;
  try { return new URL(`http://[${ip}]/`).hostname.slice(1, -1); } catch { return ip.toLowerCase(); }
}

/**
 * whether the certificate still serves what the template asks for: the same CN, and every DNS
 * name, IP and organization asked for present (extra ones do not call for a new certificate)
 */
export function satisfiesTemplate(certPem: string, t: ServingTemplate): boolean {
  const have = certificateNames(certPem);
  if (have.commonName !== t.commonName) return false;
  return t.dnsNames.every(d => have.dnsNames.includes(d))
    && t.ips.every(ip => have.ips.includes(canonicalIp(ip)))
    && t.organizations.every(o => have.organizations.includes(o));
}

export function sameTemplate(a: ServingTemplate | undefined, b: ServingTemplate | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
