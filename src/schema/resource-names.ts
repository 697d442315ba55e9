// Facts about built-in resources that the OpenAPI document does not carry: the short names
// and categories a v1.36 cluster reports in discovery (kubectl resolves `po`, `deploy` and
// `get all` from these). Keys are `<group>/<resource>`; the core group is the empty string.
// The same names apply to every version of a group+resource.

const shortNames: Record<string, string[]> = {
  '/componentstatuses': ['cs'],
  '/configmaps': ['cm'],
  '/endpoints': ['ep'],
  '/events': ['ev'],
  '/limitranges': ['limits'],
  '/namespaces': ['ns'],
  '/nodes': ['no'],
  '/persistentvolumeclaims': ['pvc'],
  '/persistentvolumes': ['pv'],
  '/pods': ['po'],
  '/replicationcontrollers': ['rc'],
  '/resourcequotas': ['quota'],
  '/serviceaccounts': ['sa'],
  '/services': ['svc'],
  'apiextensions.k8s.io/customresourcedefinitions': ['crd', 'crds'],
  'apps/daemonsets': ['ds'],
  'apps/deployments': ['deploy'],
  'apps/replicasets': ['rs'],
  'apps/statefulsets': ['sts'],
  'autoscaling/horizontalpodautoscalers': ['hpa'],
  'batch/cronjobs': ['cj'],
  'certificates.k8s.io/certificatesigningrequests': ['csr'],
  'events.k8s.io/events': ['ev'],
  'networking.k8s.io/ingresses': ['ing'],
  'networking.k8s.io/ipaddresses': ['ip'],
  'networking.k8s.io/networkpolicies': ['netpol'],
  'policy/poddisruptionbudgets': ['pdb'],
  'scheduling.k8s.io/priorityclasses': ['pc'],
  'storage.k8s.io/storageclasses': ['sc'],
  'storage.k8s.io/volumeattributesclasses': ['vac'],
};

const categories: Record<string, string[]> = {
  '/pods': ['all'],
  '/replicationcontrollers': ['all'],
  '/services': ['all'],
  'apps/daemonsets': ['all'],
  'apps/deployments': ['all'],
  'apps/replicasets': ['all'],
  'apps/statefulsets': ['all'],
  'autoscaling/horizontalpodautoscalers': ['all'],
  'batch/cronjobs': ['all'],
  'batch/jobs': ['all'],
  'admissionregistration.k8s.io/mutatingadmissionpolicies': ['api-extensions'],
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': ['api-extensions'],
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': ['api-extensions'],
  'admissionregistration.k8s.io/validatingadmissionpolicies': ['api-extensions'],
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': ['api-extensions'],
  'admissionregistration.k8s.io/validatingwebhookconfigurations': ['api-extensions'],
  'apiextensions.k8s.io/customresourcedefinitions': ['api-extensions'],
  'apiregistration.k8s.io/apiservices': ['api-extensions'],
};

// Kubernetes reports the lower-cased kind as the singular name of every built-in resource;
// this table is for the exceptions (none in v1.36, kept so one can be added without code).
const singularNames: Record<string, string> = {};

export function shortNamesFor(group: string, resource: string): string[] {
  return [...(shortNames[`${group}/${resource}`] ?? [])];
}

export function categoriesFor(group: string, resource: string): string[] {
  return [...(categories[`${group}/${resource}`] ?? [])];
}

export function singularNameFor(group: string, resource: string, kind: string): string {
  return singularNames[`${group}/${resource}`] ?? kind.toLowerCase();
}

/** every `<group>/<resource>` this file names, so a test can check each exists */
export function namedResources(): string[] {
  return [...new Set([...Object.keys(shortNames), ...Object.keys(categories), ...Object.keys(singularNames)])].sort();
}
