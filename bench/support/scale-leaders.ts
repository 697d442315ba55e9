// Evidence that one set of controllers and one scheduler worked, whatever the number of servers:
// who holds their leases and how often they changed hands, and through which server their writes
// came. Only the ReplicaSet controller creates pods and only the scheduler binds them, and each
// writes through its own server, so pod creates and bindings seen by two servers would mean two
// leaders at once (or a hand-over, which the lease's transitions then show).

import type { Client } from '../../src/client/rest.ts';
import { parsePrometheusText } from '../../test/support/prom-text.ts';

export interface LeaseState { name: string; holder: string; transitions: number }

/** pods created and bound through one server, from its apiserver_request_total */
export interface ControllerWrites { podCreates: number; bindings: number }

export async function leaseStates(client: Client): Promise<LeaseState[]> {
  return Promise.all(['kube-controller-manager', 'kube-scheduler'].map(async name => {
    const l = await client.get(`/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`);
    return { name, holder: String(l.spec?.holderIdentity ?? ''), transitions: Number(l.spec?.leaseTransitions ?? 0) };
  }));
}

export function controllerWrites(metricsText: string): ControllerWrites {
  const out = { podCreates: 0, bindings: 0 };
  for (const s of parsePrometheusText(metricsText).samples) {
    if (s.name !== 'apiserver_request_total' || s.labels.resource !== 'pods' || s.labels.verb !== 'POST' || s.labels.dry_run) continue;
    if (!s.labels.subresource) out.podCreates += s.value;
    else if (s.labels.subresource === 'binding') out.bindings += s.value;
  }
  return out;
}
