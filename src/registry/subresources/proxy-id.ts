// What the name in a proxy path says (`name`, `name:port`, `scheme:name:port`, read as
// kube-apiserver's SplitSchemeNamePort reads it), and which addresses a proxy may dial
// (kube-apiserver's IsProxyableIP: global unicast only).

export interface ProxyId {
  scheme: '' | 'http' | 'https';
  name: string;
  port: string;
}

/** `name`, `name:port` or `scheme:name:port`; undefined when it is none of these */
export function splitSchemeNamePort(id: string): ProxyId | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (!name || !['', 'http', 'https'].includes(scheme)) return undefined;
  return { scheme: scheme as ProxyId['scheme'], name, port };
}

/** an address a proxy may dial: a global unicast IP (not loopback, link-local, multicast or unspecified) */
export function isProxyableIP(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const o = v4.slice(1).map(Number);
    if (o.some(n => n > 255)) return false;
    const [a, b] = o as [number, number];
    if (a === 0 || a === 127 || a >= 224) return false; // unspecified/this-network, loopback, multicast and broadcast
    if (a === 169 && b === 254) return false; // link-local
    return true;
  }
  if (!ip.includes(':') || !/^[0-9a-fA-F:.]+$/.test(ip)) return false;
  const lower = ip.toLowerCase();
  if (lower === '::' || lower === '::1') return false;
  if (/^fe[89ab]/.test(lower) || lower.startsWith('ff')) return false; // link-local, multicast
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped ? isProxyableIP(mapped[1]!) : true;
}
