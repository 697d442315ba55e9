// Printers for the remaining grouped resources: coordination, networking, RBAC, scheduling,
// autoscaling, policy, certificates, admission, node and discovery.

import type { Of, Printer } from './types.ts';
import type { AdmissionregistrationV1MutatingWebhookConfiguration, AdmissionregistrationV1ValidatingWebhookConfiguration, AutoscalingV1HorizontalPodAutoscaler, AutoscalingV1HorizontalPodAutoscalerSpec, AutoscalingV1HorizontalPodAutoscalerStatus, AutoscalingV2HorizontalPodAutoscaler, AutoscalingV2HorizontalPodAutoscalerSpec, AutoscalingV2HorizontalPodAutoscalerStatus, AutoscalingV2MetricSpec, AutoscalingV2MetricStatus, CertificatesV1CertificateSigningRequest, CoordinationV1Lease, DiscoveryV1EndpointSlice, NetworkingV1Ingress, NetworkingV1IngressClass, NetworkingV1IngressRule, NetworkingV1NetworkPolicy, NodeV1RuntimeClass, PolicyV1PodDisruptionBudget, RbacV1ClusterRoleBinding, RbacV1RoleBinding, SchedulingV1PriorityClass } from '../generated/types.ts';
import { ageColumn, col, nameColumn, wideColumn } from './types.ts';
import { humanDuration, list, nameOf, objAge, selectorString, spec, status, withMore } from './format.ts';
import { loadBalancerAddresses } from './core.ts';

export const leasePrinter: Printer<Of<CoordinationV1Lease>> = {
  columns: [nameColumn(), col('Holder'), ageColumn()],
  cells: (l, now) => [nameOf(l), spec(l).holderIdentity ?? '', objAge(l, now)],
};

function ingressHosts(rules: NetworkingV1IngressRule[]): string {
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    if (hosts.length === 3) { more = true; break; }
    if (r.host) hosts.push(r.host);
  }
  if (!hosts.length) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

export const ingressPrinter: Printer<Of<NetworkingV1Ingress>> = {
  columns: [nameColumn(), col('Class'), col('Hosts'), col('Address'), col('Ports'), ageColumn()],
  cells(ing, now) {
    const s = spec(ing);
    return [nameOf(ing), s.ingressClassName ?? '<none>', ingressHosts(list(s.rules)), loadBalancerAddresses(status(ing).loadBalancer).join(','), list(s.tls).length ? '80, 443' : '80', objAge(ing, now)];
  },
};

export const ingressClassPrinter: Printer<Of<NetworkingV1IngressClass>> = {
  columns: [nameColumn(), col('Controller'), col('Parameters'), ageColumn()],
  cells(ic, now) {
    const p = spec(ic).parameters;
    const params = p ? `${p.kind}${p.apiGroup ? '.' + p.apiGroup : ''}/${p.name}` : '<none>';
    return [nameOf(ic), spec(ic).controller ?? '', params, objAge(ic, now)];
  },
};

export const networkPolicyPrinter: Printer<Of<NetworkingV1NetworkPolicy>> = {
  columns: [nameColumn(), col('Pod-Selector'), ageColumn()],
  cells: (np, now) => [nameOf(np), selectorString(spec(np).podSelector ?? {}), objAge(np, now)],
};

type Binding = Of<RbacV1RoleBinding> | Of<RbacV1ClusterRoleBinding>;

function subjects(rb: Binding, kind: string): string {
  return list(rb.subjects).filter(s => s.kind === kind).map(s => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name)).join(', ');
}

export const roleBindingPrinter: Printer<Binding> = {
  columns: [nameColumn(), col('Role'), ageColumn(), wideColumn('Users'), wideColumn('Groups'), wideColumn('ServiceAccounts')],
  cells(rb, now) {
    return [nameOf(rb), `${rb.roleRef?.kind ?? ''}/${rb.roleRef?.name ?? ''}`, objAge(rb, now), subjects(rb, 'User'), subjects(rb, 'Group'), subjects(rb, 'ServiceAccount')];
  },
};

export const priorityClassPrinter: Printer<Of<SchedulingV1PriorityClass>> = {
  columns: [nameColumn(), col('Value', 'integer'), col('Global-Default', 'boolean'), ageColumn(), col('PreemptionPolicy')],
  cells(pc, now) {
    return [nameOf(pc), pc.value ?? 0, pc.globalDefault === true, objAge(pc, now), pc.preemptionPolicy ?? ''];
  },
};

/** one metric target as `current/target`, following the autoscaling/v2 shapes */
function metricText(m: AutoscalingV2MetricSpec, current: AutoscalingV2MetricStatus | undefined): string {
  const unknown = '<unknown>';
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource': {
      const src = m.type === 'Resource' ? m.resource : m.containerResource;
      const cur = m.type === 'Resource' ? current?.resource?.current : current?.containerResource?.current;
      if (src?.target?.averageValue !== undefined) return `${src.name}: ${cur?.averageValue ?? unknown}/${src.target.averageValue}`;
      const now = cur?.averageUtilization !== undefined ? `${cur.averageUtilization}%` : unknown;
      const target = src?.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
      return `${src?.name}: ${now}/${target}`;
    }
    case 'Pods':
      return `${current?.pods?.current?.averageValue ?? unknown}/${m.pods?.target?.averageValue ?? ''}`;
    case 'Object':
    case 'External': {
      const target = (m.type === 'Object' ? m.object?.target : m.external?.target) ?? { type: '' };
      const cur = m.type === 'Object' ? current?.object?.current : current?.external?.current;
      if (target.averageValue !== undefined) return `${cur?.averageValue ?? unknown}/${target.averageValue} (avg)`;
      return `${cur?.value ?? unknown}/${target.value ?? ''}`;
    }
    default:
      return '<unknown type>';
  }
}

/** an HPA in either served version: v2's metrics, or v1's single CPU target */
type Hpa = Of<AutoscalingV1HorizontalPodAutoscaler> | Of<AutoscalingV2HorizontalPodAutoscaler>;
type HpaSpec = Partial<AutoscalingV1HorizontalPodAutoscalerSpec> & Partial<AutoscalingV2HorizontalPodAutoscalerSpec>;
type HpaStatus = Partial<AutoscalingV1HorizontalPodAutoscalerStatus> & Partial<AutoscalingV2HorizontalPodAutoscalerStatus>;

function hpaTargets(h: Hpa): string {
  const s: HpaSpec = h.spec ?? {}, st: HpaStatus = h.status ?? {};
  let metrics = list(s.metrics), current = list(st.currentMetrics);
  // autoscaling/v1 objects carry a single CPU target
  if (!metrics.length && s.targetCPUUtilizationPercentage !== undefined) {
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: s.targetCPUUtilizationPercentage } } }];
    current = st.currentCPUUtilizationPercentage !== undefined ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: st.currentCPUUtilizationPercentage } } }] : [];
  }
  if (!metrics.length) return '<none>';
  return withMore(metrics.map((m, i) => metricText(m, current[i])), metrics.length, 2, ', ');
}

export const hpaPrinter: Printer<Hpa> = {
  columns: [nameColumn(), col('Reference'), col('Targets'), col('MinPods'), col('MaxPods'), col('Replicas'), ageColumn()],
  cells(h, now) {
    const s: HpaSpec = h.spec ?? {};
    const ref = `${s.scaleTargetRef?.kind ?? ''}/${s.scaleTargetRef?.name ?? ''}`;
    return [nameOf(h), ref, hpaTargets(h), s.minReplicas !== undefined ? String(s.minReplicas) : '<unset>', s.maxReplicas ?? 0, (h.status as HpaStatus | undefined)?.currentReplicas ?? 0, objAge(h, now)];
  },
};

export const pdbPrinter: Printer<Of<PolicyV1PodDisruptionBudget>> = {
  columns: [nameColumn(), col('Min Available'), col('Max Unavailable'), col('Allowed Disruptions', 'integer'), ageColumn()],
  cells(p, now) {
    const s = spec(p);
    const show = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v));
    return [nameOf(p), show(s.minAvailable), show(s.maxUnavailable), status(p).disruptionsAllowed ?? 0, objAge(p, now)];
  },
};

function csrCondition(c: Of<CertificatesV1CertificateSigningRequest>): string {
  const types = new Set(list(c.status?.conditions).map(x => x.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (c.status?.certificate) text += ',Issued';
  return text;
}

export const csrPrinter: Printer<Of<CertificatesV1CertificateSigningRequest>> = {
  columns: [nameColumn(), ageColumn(), col('SignerName'), col('Requestor'), col('RequestedDuration'), col('Condition')],
  cells(c, now) {
    const s = spec(c);
    const requested = typeof s.expirationSeconds === 'number' ? humanDuration(s.expirationSeconds * 1000) : '<none>';
    return [nameOf(c), objAge(c, now), s.signerName || '<none>', s.username ?? '', requested, csrCondition(c)];
  },
};

export const webhookConfigurationPrinter: Printer<Of<AdmissionregistrationV1MutatingWebhookConfiguration> | Of<AdmissionregistrationV1ValidatingWebhookConfiguration>> = {
  columns: [nameColumn(), col('Webhooks', 'integer'), ageColumn()],
  cells: (w, now) => [nameOf(w), list(w.webhooks).length, objAge(w, now)],
};

export const runtimeClassPrinter: Printer<Of<NodeV1RuntimeClass>> = {
  columns: [nameColumn(), col('Handler'), ageColumn()],
  cells: (rc, now) => [nameOf(rc), rc.handler ?? '', objAge(rc, now)],
};

export const endpointSlicePrinter: Printer<Of<DiscoveryV1EndpointSlice>> = {
  columns: [nameColumn(), col('AddressType'), col('Ports'), col('Endpoints'), ageColumn()],
  cells(es, now) {
    const ports = list(es.ports).map(p => (p.port !== undefined && p.port !== null ? String(p.port) : p.name ?? '*'));
    const addrs = list(es.endpoints).flatMap(e => (Array.isArray(e.addresses) ? e.addresses : []));
    return [nameOf(es), es.addressType ?? '', withMore(ports, ports.length, 3) || '<unset>', withMore(addrs, addrs.length, 3) || '<unset>', objAge(es, now)];
  },
};
