// The admission configuration objects (webhook configurations, admission policies and their
// bindings) are never subject to webhooks or policies: a broken webhook or policy cannot lock
// the cluster out of removing it.

const admissionConfigurationResources = new Set([
  'validatingwebhookconfigurations', 'mutatingwebhookconfigurations',
  'validatingadmissionpolicies', 'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings',
]);

export function isAdmissionConfiguration(group: string, resource: string): boolean {
  return group === 'admissionregistration.k8s.io' && admissionConfigurationResources.has(resource);
}
