// The EndpointSlices of a Service, as the EndpointSlice controller's reconciler decides them:
// endpoints are grouped by address type and by the ports they resolve (pods naming a port
// differently land in different slices), existing slices keep what is still wanted and change in
// place, new endpoints fill slices with room before new slices (of at most maxEndpointsPerSlice)
// are made, and a service with no endpoints keeps one empty placeholder slice.

import { jsonEqual } from '../../api/object.ts';
import type { DiscoveryV1Endpoint, DiscoveryV1EndpointPort, DiscoveryV1EndpointSlice } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';
import { findPort, podAddress, podToSliceEndpoint, serviceAddressTypes, shouldPodBeInEndpoints, type AddressType, type Pod, type Service } from './pod-endpoint.ts';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const controllerName = 'endpointslice-controller.k8s.io';
export const headlessLabel = 'service.kubernetes.io/headless';
export const triggerTimeAnnotation = 'endpoints.kubernetes.io/last-change-trigger-time';
export const defaultMaxEndpointsPerSlice = 100;

export type Slice = DiscoveryV1EndpointSlice & { metadata: { name?: string; namespace?: string; [k: string]: any } };
export type ExistingSlice = ServedInNamespace<DiscoveryV1EndpointSlice>;

export interface SliceChanges {
  create: Slice[];
  update: ExistingSlice[];
  delete: ExistingSlice[];
}

export interface ReconcileInput {
  service: Service;
  /** the pods the service's selector selects */
  pods: Pod[];
  /** the slices this controller manages for the service */
  existing: ExistingSlice[];
  maxEndpointsPerSlice?: number;
  /** the zone label of a node, for endpoints' zone */
  zoneOf?: (node: string) => string | undefined;
  /** RFC3339Nano time of the change that caused this sync, written on changed slices */
  triggerTime?: string;
}

/** the labels a slice of this service carries: the service's own, then the controller's */
export function sliceLabels(svc: Service): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) {
    if (k !== serviceNameLabel && k !== managedByLabel && k !== headlessLabel) labels[k] = v;
  }
  if (svc.spec?.clusterIP === 'None') labels[headlessLabel] = '';
  labels[serviceNameLabel] = svc.metadata.name;
  labels[managedByLabel] = controllerName;
  return labels;
}

export const portsKey = (type: string, ports: DiscoveryV1EndpointPort[] | undefined) =>
  `${type}|${(ports ?? []).map(p => `${p.name ?? ''}/${p.port}/${p.protocol ?? ''}/${p.appProtocol ?? ''}`).sort().join(',')}`;
export const endpointKey = (ep: DiscoveryV1Endpoint) => ep.addresses.join(',');
/** equal but for the pod's resourceVersion, which slices do not follow */
const sameEndpoint = (a: DiscoveryV1Endpoint, b: DiscoveryV1Endpoint) =>
  jsonEqual({ ...a, targetRef: a.targetRef && { ...a.targetRef, resourceVersion: undefined } }, { ...b, targetRef: b.targetRef && { ...b.targetRef, resourceVersion: undefined } });

function podPorts(pod: Pod, svc: Service): DiscoveryV1EndpointPort[] {
  const out: DiscoveryV1EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const p: DiscoveryV1EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) p.appProtocol = sp.appProtocol;
    out.push(p);
  }
  return out;
}

/** endpoints of one address type sharing one set of ports, keyed by their addresses */
export interface Group { type: AddressType; ports: DiscoveryV1EndpointPort[]; endpoints: Map<string, DiscoveryV1Endpoint> }

function desiredGroups(input: ReconcileInput): Map<string, Group> {
  const { service: svc } = input;
  const groups = new Map<string, Group>();
  const pods = [...input.pods].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const type of serviceAddressTypes(svc, pods)) {
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const address = podAddress(pod, type);
      if (!address) continue;
      const ports = podPorts(pod, svc);
      const key = portsKey(type, ports);
      let g = groups.get(key);
      if (!g) groups.set(key, g = { type, ports, endpoints: new Map() });
      const node = pod.spec?.nodeName;
      const ep = podToSliceEndpoint(pod, svc, address, node ? input.zoneOf?.(node) : undefined);
      g.endpoints.set(endpointKey(ep), ep);
    }
  }
  return groups;
}

function newSlice(svc: Service, type: AddressType, ports: DiscoveryV1EndpointPort[], endpoints: DiscoveryV1Endpoint[], triggerTime?: string): Slice {
  const owner = { apiVersion: 'v1', kind: 'Service', name: svc.metadata.name, uid: svc.metadata.uid! };
  return sliceObject(svc.metadata.namespace, owner, sliceLabels(svc), triggerTime ? { [triggerTimeAnnotation]: triggerTime } : undefined, type, ports, endpoints);
}

/** a new slice of an owner (its controller reference), named after it */
export function sliceObject(namespace: string, owner: { apiVersion: string; kind: string; name: string; uid: string }, labels: Record<string, string>, annotations: Record<string, string> | undefined,
  type: AddressType, ports: DiscoveryV1EndpointPort[], endpoints: DiscoveryV1Endpoint[]): Slice {
  const metadata: Slice['metadata'] = {
    generateName: slicePrefix(owner.name),
    namespace,
    labels,
    ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }],
  };
  if (annotations && Object.keys(annotations).length) metadata.annotations = annotations;
  // empty lists are left out: stored through protobuf, Kubernetes serves them as null
  const slice: Slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata, addressType: type };
  if (endpoints.length) slice.endpoints = endpoints;
  if (ports.length) slice.ports = ports;
  return slice;
}

/** `<service>-`, shortened so that the generated name stays a valid DNS subdomain */
export function slicePrefix(service: string): string {
  const prefix = `${service}-`;
  return prefix.length > 58 ? `${prefix.slice(0, 57)}-` : prefix;
}

/** what a set of slices is to look like, whichever controller manages them */
export interface SliceSpec {
  labels: Record<string, string>;
  /** the annotations of a slice written now, from those it has */
  annotate(current: Record<string, string> | undefined): Record<string, string> | undefined;
  /** whether annotations that differ make a slice change (mirrored slices follow their Endpoints') */
  annotationsMatter?: boolean;
  newSlice(type: AddressType, ports: DiscoveryV1EndpointPort[], endpoints: DiscoveryV1Endpoint[]): Slice;
  max: number;
  /** the address type of the placeholder slice kept when nothing is published; none: no placeholder */
  placeholder?: AddressType;
}

/** the changes that make `existing` hold the endpoints of `wanted`, group by group */
export function reconcileGroups(wanted: Map<string, Group>, existing: ExistingSlice[], spec: SliceSpec): SliceChanges {
  const { labels, max } = spec;
  const changes: SliceChanges = { create: [], update: [], delete: [] };
  const touched = (s: ExistingSlice): ExistingSlice => ({ ...s, metadata: { ...s.metadata, labels, annotations: spec.annotate(s.metadata.annotations) } });
  const metaChanged = (s: ExistingSlice) => !jsonEqual(s.metadata.labels ?? {}, labels)
    || (!!spec.annotationsMatter && !jsonEqual(s.metadata.annotations ?? {}, spec.annotate(s.metadata.annotations) ?? {}));
  let kept = 0;

  const existingByGroup = new Map<string, ExistingSlice[]>();
  for (const s of existing) {
    const key = portsKey(s.addressType, s.ports);
    if (!wanted.has(key)) { changes.delete.push(s); continue; }
    existingByGroup.set(key, [...(existingByGroup.get(key) ?? []), s]);
  }

  for (const [key, group] of wanted) {
    const remaining = new Map(group.endpoints);
    const withRoom: Array<{ slice: ExistingSlice; endpoints: DiscoveryV1Endpoint[]; changed: boolean }> = [];
    for (const s of existingByGroup.get(key) ?? []) {
      let changed = metaChanged(s);
      const endpoints: DiscoveryV1Endpoint[] = [];
      for (const ep of s.endpoints ?? []) {
        const want = remaining.get(endpointKey(ep));
        if (!want) { changed = true; continue; }
        remaining.delete(endpointKey(ep));
        if (!sameEndpoint(ep, want)) changed = true;
        endpoints.push(want);
      }
      if (!endpoints.length) { changes.delete.push(s); continue; }
      withRoom.push({ slice: s, endpoints, changed });
    }
    // new endpoints go first into slices that change anyway, then into any with room
    withRoom.sort((a, b) => Number(b.changed) - Number(a.changed));
    for (const w of withRoom) {
      while (remaining.size && w.endpoints.length < max) {
        const [k, ep] = remaining.entries().next().value!;
        remaining.delete(k);
        w.endpoints.push(ep);
        w.changed = true;
      }
      kept++;
      if (w.changed) changes.update.push({ ...touched(w.slice), endpoints: w.endpoints });
    }
    const rest = [...remaining.values()];
    for (let i = 0; i < rest.length; i += max) changes.create.push(spec.newSlice(group.type, group.ports, rest.slice(i, i + max)));
  }

  // nothing to publish: one placeholder slice, without ports or endpoints, says so
  if (spec.placeholder && !kept && !changes.create.length) {
    const type = spec.placeholder;
    const placeholder = changes.delete.findIndex(s => s.addressType === type && !s.ports?.length && !s.endpoints?.length);
    if (placeholder >= 0) {
      const [s] = changes.delete.splice(placeholder, 1);
      if (metaChanged(s!)) changes.update.push(touched(s!));
    } else {
      changes.create.push(spec.newSlice(type, [], []));
    }
  }
  return changes;
}

export function reconcileSlices(input: ReconcileInput): SliceChanges {
  const { service: svc, triggerTime } = input;
  return reconcileGroups(desiredGroups(input), input.existing, {
    labels: sliceLabels(svc),
    annotate: current => (triggerTime ? { ...current, [triggerTimeAnnotation]: triggerTime } : current),
    newSlice: (type, ports, endpoints) => newSlice(svc, type, ports, endpoints, triggerTime),
    max: input.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice,
    placeholder: serviceAddressTypes(svc, [])[0]!,
  });
}
