// Admission attributes and policy objects for the ValidatingAdmissionPolicy tests.

import type { KubeObject } from '../../../../../../src/api/object.ts';
import type { AdmissionAttributes } from '../../../../../../src/apiserver/admission/types.ts';
import type { ResourceInfo } from '../../../../../../src/schema/types.ts';

export interface Recorded extends AdmissionAttributes { warnings: string[]; annotations: Record<string, string> }

export function attributes(resource: ResourceInfo, over: Partial<AdmissionAttributes> = {}): Recorded {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  return {
    operation: 'CREATE', resource, subresource: '', namespace: 'dev', name: 'web',
    user: { name: 'jane', groups: ['devs', 'system:authenticated'] }, dryRun: false,
    warn: t => { warnings.push(t); },
    annotate: (k, v) => { if (!(k in annotations)) annotations[k] = v; },
    warnings, annotations,
    ...over,
  };
}

export function deployment(replicas: number, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'dev', labels }, spec: { replicas } } as KubeObject;
}

export const deploymentRules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] };

export function policy(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: deploymentRules, ...spec } } as KubeObject;
}

export function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } } as KubeObject;
}
