// Quota scopes: which objects a ResourceQuota with spec.scopes or spec.scopeSelector counts.
// Each scope is a requirement on the object; a quota counts an object only when every one of its
// requirements holds. Only pods have scopes (Terminating, NotTerminating, BestEffort,
// NotBestEffort, PriorityClass, CrossNamespacePodAffinity); no other object matches a scoped quota.

import { computeQosClass, type QosPod } from '../qos.ts';

export interface ScopeRequirement {
  scopeName: string;
  /** In, NotIn, Exists, DoesNotExist */
  operator: string;
  values?: string[];
}

export interface QuotaSpecScopes {
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopeRequirement[] };
}

/** the quota's scopes as requirements: each of spec.scopes is an Exists, then the selector's expressions */
export function scopeRequirements(spec: QuotaSpecScopes | undefined): ScopeRequirement[] {
  const out: ScopeRequirement[] = (spec?.scopes ?? []).map(s => ({ scopeName: s, operator: 'Exists' }));
  for (const e of spec?.scopeSelector?.matchExpressions ?? []) out.push(e);
  return out;
}

export interface ScopedPod extends QosPod {
  spec?: QosPod['spec'] & {
    activeDeadlineSeconds?: number;
    priorityClassName?: string;
    affinity?: Record<string, any>;
  };
}

/** the value a requirement on `key` sees, as a label set holding it only when present */
function selects(r: ScopeRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    default: return false;
  }
}

// a pod affinity term reaching other namespaces counts against CrossNamespacePodAffinity quotas
function crossNamespaceAffinity(pod: ScopedPod): boolean {
  const a = pod.spec?.affinity ?? {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const terms: any[] = [
      ...(a[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(a[kind]?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w: any) => w?.podAffinityTerm ?? {}),
    ];
    if (terms.some(t => t?.namespaceSelector != null || (t?.namespaces?.length ?? 0) > 0)) return true;
  }
  return false;
}

/** whether a pod meets one scope requirement */
export function podMatchesScope(r: ScopeRequirement, pod: ScopedPod): boolean {
  const spec = pod.spec ?? {};
  const terminating = typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
  switch (r.scopeName) {
    case 'Terminating': return terminating;
    case 'NotTerminating': return !terminating;
    case 'BestEffort': return computeQosClass(pod) === 'BestEffort';
    case 'NotBestEffort': return computeQosClass(pod) !== 'BestEffort';
    case 'PriorityClass':
      if (r.operator === 'Exists') return !!spec.priorityClassName;
      return selects(r, spec.priorityClassName || undefined);
    case 'CrossNamespacePodAffinity': return crossNamespaceAffinity(pod);
    default: return false;
  }
}
