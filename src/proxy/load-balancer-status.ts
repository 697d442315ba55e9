// A LoadBalancer Service on a machine without a load balancer: reached on its node ports, and its
// status.loadBalancer left empty, as a cluster without a cloud provider leaves it — unless an
// address of this host is configured to stand in for one (as k3s's service load balancer uses the
// node's address). Then each LoadBalancer Service (of no other load balancer class) is given that
// address as its ingress, and the proxy's rules send that address and port to its endpoints.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';

/** the status patch a Service needs for `ip` to be its load balancer address, or undefined */
export function loadBalancerStatusPatch(svc: any, ip: string): object | undefined {
  if (svc?.spec?.type !== 'LoadBalancer' || svc.spec.loadBalancerClass) return undefined;
  const have = (svc.status?.loadBalancer?.ingress ?? []) as Array<{ ip?: string; ipMode?: string }>;
  if (have.length === 1 && have[0]!.ip === ip) return undefined;
  return { status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } };
}

/** writes the patch where a Service needs it; failures are logged and retried on the next change or resync */
export function loadBalancerStatusWriter(client: Client, ip: string, log: Logger): (svc: any) => void {
  const inFlight = new Set<string>();
  return svc => {
    const patch = loadBalancerStatusPatch(svc, ip);
    const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
    if (!patch || inFlight.has(key)) return;
    inFlight.add(key);
    const path = `/api/v1/namespaces/${encodeURIComponent(svc.metadata.namespace)}/services/${encodeURIComponent(svc.metadata.name)}/status`;
    client.patch(path, patch, 'application/merge-patch+json')
      .catch(err => log.warn('setting a load balancer address failed', { service: key, err: String(err) }))
      .finally(() => inFlight.delete(key));
  };
}
