// The variables the kubelet gives every container about Services: `<NAME>_SERVICE_HOST` and
// `_SERVICE_PORT` (and one per named port) plus Docker-link-style `<NAME>_PORT...` variables, for
// the Services of the pod's namespace (unless enableServiceLinks is false) and, always, for the
// `kubernetes` Service of `default` — how in-cluster clients find the API server.

export interface ServiceLike {
  metadata?: { name?: string; namespace?: string };
  spec?: { clusterIP?: string; ports?: Array<{ name?: string; port?: number; protocol?: string }> };
}

const envName = (s: string) => s.toUpperCase().replaceAll('-', '_');

function serviceVars(svc: ServiceLike, out: Map<string, string>): void {
  const name = envName(svc.metadata?.name ?? '');
  const ip = svc.spec!.clusterIP!;
  const ports = svc.spec?.ports ?? [];
  out.set(`${name}_SERVICE_HOST`, ip);
  if (ports.length) out.set(`${name}_SERVICE_PORT`, String(ports[0]!.port));
  for (const p of ports) if (p.name) out.set(`${name}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
  const host = ip.includes(':') ? `[${ip}]` : ip;
  ports.forEach((p, i) => {
    const proto = (p.protocol ?? 'TCP').toLowerCase();
    const url = `${proto}://${host}:${p.port}`;
    if (i === 0) out.set(`${name}_PORT`, url);
    const prefix = `${name}_PORT_${p.port}_${proto.toUpperCase()}`;
    out.set(prefix, url);
    out.set(`${prefix}_PROTO`, proto);
    out.set(`${prefix}_PORT`, String(p.port));
    out.set(`${prefix}_ADDR`, ip);
  });
}

/** the service variables of a pod in `namespace`, from the Services of that namespace and of `default` */
export function serviceEnv(services: ServiceLike[], namespace: string, enableServiceLinks: boolean): Map<string, string> {
  const chosen = new Map<string, ServiceLike>();
  for (const svc of services) {
    const ip = svc.spec?.clusterIP;
    if (!ip || ip === 'None') continue;
    const name = svc.metadata?.name ?? '';
    const ns = svc.metadata?.namespace;
    // the API server's Service always; the namespace's own only with service links on, and they win
    if (ns === 'default' && name === 'kubernetes') { if (!chosen.has(name)) chosen.set(name, svc); } else if (ns === namespace && enableServiceLinks) chosen.set(name, svc);
  }
  const out = new Map<string, string>();
  for (const svc of chosen.values()) serviceVars(svc, out);
  return out;
}

/** a pod's service variables through the API (none for an agent without one) */
export async function podServiceEnv(src: { services?(namespace: string): Promise<ServiceLike[]> }, pod: { metadata: { namespace: string }; spec: { enableServiceLinks?: boolean } }): Promise<Map<string, string>> {
  if (!src.services) return new Map();
  const ns = pod.metadata.namespace;
  const links = pod.spec.enableServiceLinks !== false;
  const lists = await Promise.all([links ? src.services(ns) : Promise.resolve([]), ns === 'default' && links ? Promise.resolve([]) : src.services('default')]);
  return serviceEnv(lists.flat(), ns, links);
}
