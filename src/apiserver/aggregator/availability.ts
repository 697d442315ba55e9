// The Available condition of an APIService, decided as kube-aggregator's availability controller
// decides it: local ones always; remote ones by their Service, its port, its endpoints and then
// a GET of the group-version's discovery document. Pure: the controller supplies what it read.

import type { KubeObject } from '../../api/object.ts';

export interface AvailableCondition {
  type: 'Available';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

export interface ServiceRef { namespace: string; name: string; port: number }

export interface APIServiceSpec {
  group?: string;
  version?: string;
  service?: { namespace?: string; name?: string; port?: number } | null;
  caBundle?: string;
  insecureSkipTLSVerify?: boolean;
}

/** the Service an APIService names (port 443 when unset, as the API defaults it), or undefined for a local one */
export function serviceRef(spec: APIServiceSpec | undefined): ServiceRef | undefined {
  const s = spec?.service;
  if (!s) return undefined;
  return { namespace: s.namespace ?? '', name: s.name ?? '', port: s.port ?? 443 };
}

const cond = (status: AvailableCondition['status'], reason: string, message: string): AvailableCondition => ({ type: 'Available', status, reason, message });

export const localCondition = (): AvailableCondition => cond('True', 'Local', 'Local APIServices are always available');
export const passedCondition = (): AvailableCondition => cond('True', 'Passed', 'all checks passed');

/** Go's %q of a plain string */
const q = (s: string) => JSON.stringify(s);

interface ServiceParts { spec?: { type?: string; ports?: Array<{ name?: string; port?: number }> } }
interface EndpointsParts { subsets?: Array<{ addresses?: unknown[]; ports?: Array<{ name?: string }> }> }

/**
 * What the cluster objects alone say: a failing condition, or undefined when the discovery check
 * is to decide. `endpoints` undefined: no Endpoints object of the Service's name.
 */
export function clusterCondition(ref: ServiceRef, service: (KubeObject & ServiceParts) | undefined, endpoints: (KubeObject & EndpointsParts) | undefined): AvailableCondition | undefined {
  const who = `service/${ref.name} in ${q(ref.namespace)}`;
  if (!service) return cond('False', 'ServiceNotFound', `${who} is not present`);
  // only a ClusterIP Service (the default type) is checked for its port and endpoints
  if ((service.spec?.type ?? 'ClusterIP') !== 'ClusterIP') return undefined;
  const port = (service.spec?.ports ?? []).find(p => p.port === ref.port);
  if (!port) return cond('False', 'ServicePortError', `${who} is not listening on port ${ref.port}`);
  const portName = port.name ?? '';
  if (!endpoints) return cond('False', 'EndpointsNotFound', `cannot find endpoints for ${who}`);
  const active = (endpoints.subsets ?? []).some(s => (s.addresses ?? []).length > 0 && (s.ports ?? []).some(p => (p.name ?? '') === portName));
  if (!active) return cond('False', 'MissingEndpoints', `endpoints for ${who} have no addresses with port name ${q(portName)}`);
  return undefined;
}

/** the discovery check's failure: a status outside 2xx/3xx, or the error of the exchange */
export function discoveryFailure(url: string, failure: { status: number } | { error: string }): AvailableCondition {
  const why = 'status' in failure ? `bad status from ${url}: ${failure.status}` : failure.error;
  return cond('False', 'FailedDiscoveryCheck', `failing or missing response from ${url}: ${why}`);
}

/**
 * The status with `next` as its Available condition; the transition time moves only when the
 * status changes. Undefined when nothing changed (no write, as kube-aggregator skips no-op updates).
 */
export function withCondition(status: { conditions?: AvailableCondition[] } | undefined, next: AvailableCondition, now: string): { conditions: AvailableCondition[] } | undefined {
  const conditions = status?.conditions ?? [];
  const old = conditions.find(c => c.type === 'Available');
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return undefined;
  const merged = { ...next, lastTransitionTime: old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  // field order as Kubernetes writes a condition
  const ordered: AvailableCondition = { type: 'Available', status: merged.status, lastTransitionTime: merged.lastTransitionTime, reason: merged.reason, message: merged.message };
  return { conditions: [...conditions.filter(c => c.type !== 'Available'), ordered] };
}

export function isAvailable(obj: { status?: { conditions?: AvailableCondition[] } }): boolean {
  return obj.status?.conditions?.find(c => c.type === 'Available')?.status === 'True';
}
