// Admission attributes for the webhook plugins' tests, recording warnings and annotations.

import type { KubeObject } from '../../../../../../src/api/object.ts';
import { createCatalog } from '../../../../../../src/schema/catalog.ts';
import type { AdmissionAttributes } from '../../../../../../src/apiserver/admission/types.ts';

export const catalog = createCatalog();

export interface Recorded extends AdmissionAttributes { warnings: string[]; annotations: Record<string, string> }

export function attributes(over: Partial<AdmissionAttributes> & { group?: string; version?: string; plural?: string } = {}): Recorded {
  const { group = '', version = 'v1', plural = 'pods', ...rest } = over;
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const object: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  return {
    operation: 'CREATE', resource: catalog.lookup(group, version, plural)!, subresource: '', namespace: 'dev', name: 'p',
    object, user: { name: 'jane', groups: ['system:authenticated'] }, dryRun: false,
    warn: t => { warnings.push(t); }, annotate: (k, v) => { annotations[k] = v; },
    warnings, annotations,
    ...rest,
  };
}

/** a configuration object with one webhook per entry, defaults as the registry fills them */
export function configuration(name: string, webhooks: Array<Record<string, unknown>>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name },
    webhooks: webhooks.map(w => ({
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
      failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
      sideEffects: 'None', timeoutSeconds: 10, admissionReviewVersions: ['v1'],
      ...w,
    })),
  };
}
