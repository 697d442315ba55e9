// The parts of a CustomResourceDefinition (apiextensions.k8s.io/v1) that serving reads, and
// reading them from an object that passed the CRD's own checks.

import type { KubeObject } from '../../api/object.ts';
import type { PrinterColumnSpec } from '../../schema/types.ts';

export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: unknown };
  additionalPrinterColumns?: PrinterColumnSpec[];
  selectableFields?: { jsonPath: string }[];
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
}

/** where a conversion webhook is reached: exactly one of url and service */
export interface CrdWebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** base64 PEM */
  caBundle?: string;
}

export interface CrdConversion {
  strategy: 'None' | 'Webhook';
  webhook?: { clientConfig?: CrdWebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface Crd extends KubeObject {
  spec: {
    group: string;
    names: CrdNames;
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
    conversion?: CrdConversion;
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CrdCondition[];
    acceptedNames?: CrdNames;
    storedVersions?: string[];
  };
}

export const cleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export function conditionOf(crd: Crd, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find(c => c.type === type);
}

export function isConditionTrue(crd: Crd, type: string): boolean {
  return conditionOf(crd, type)?.status === 'True';
}

/**
 * the conditions with `next` in place of its type's entry; the transition time moves only when
 * the status does, as Kubernetes' SetCRDCondition keeps it
 */
export function withCondition(conditions: CrdCondition[] | undefined, next: CrdCondition, now: string): CrdCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex(c => c.type === next.type);
  const old = i >= 0 ? list[i] : undefined;
  const entry: CrdCondition = { ...next, lastTransitionTime: old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  if (i >= 0) list[i] = entry; else list.push(entry);
  return list;
}

export function storageVersionOf(crd: Crd): string | undefined {
  return crd.spec.versions.find(v => v.storage)?.name;
}
