// resolv.conf read as the kubelet reads the host's (nameserver lines, the last search line, options
// by name, later ones replacing earlier ones) and written as the runtime writes a pod's. Cluster DNS
// forwards to its nameservers; the node agent gives pods with dnsPolicy Default its settings.

export interface ResolvConf {
  nameservers: string[];
  searches: string[];
  options: string[];
}

/** options merged by name (the part before ':'), a later one replacing an earlier one in its place */
export function mergeOptions(options: string[], more: string[]): string[] {
  const byName = new Map<string, string>();
  for (const o of [...options, ...more]) byName.set(o.split(':')[0], o);
  return [...byName.values()];
}

export function parseResolvConf(text: string): ResolvConf {
  const out: ResolvConf = { nameservers: [], searches: [], options: [] };
  for (const line of text.split('\n')) {
    if (line.trim().startsWith('#')) continue;
    const fields = line.trim().split(/\s+/).filter(Boolean);
    if (!fields.length) continue;
    if (fields[0] === 'nameserver' && fields[1]) out.nameservers.push(fields[1]);
    // a later search line replaces an earlier one; "." and final dots are dropped
    if (fields[0] === 'search') out.searches = fields.slice(1).filter(s => s !== '.').map(s => s.replace(/\.$/, ''));
    if (fields[0] === 'options') out.options = mergeOptions(out.options, fields.slice(1));
  }
  return out;
}

/** the file as containerd writes a pod's /etc/resolv.conf from the CRI's DNSConfig */
export function formatResolvConf(c: ResolvConf): string {
  const lines: string[] = [];
  if (c.searches.length) lines.push(`search ${c.searches.join(' ')}`);
  for (const s of c.nameservers) lines.push(`nameserver ${s}`);
  if (c.options.length) lines.push(`options ${c.options.join(' ')}`);
  return lines.map(l => `${l}\n`).join('');
}

/** the servers to forward to: the nameservers (port 53), or host:port pairs given instead */
export function upstreamServers(list: string[]): Array<{ host: string; port: number }> {
  return list.map(s => {
    const m = /^\[(.+)\]:(\d+)$/.exec(s) ?? /^([^:]+):(\d+)$/.exec(s);
    return m ? { host: m[1], port: Number(m[2]) } : { host: s, port: 53 };
  });
}
