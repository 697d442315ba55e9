// Which printer each resource uses. Resources without one (roles, cluster roles, custom
// resource definitions, limit ranges, ...) get Kubernetes' default: Name and Created At.

import type { Printer } from './types.ts';
import { col, nameColumn } from './types.ts';
import { nameOf } from './format.ts';
import { podPrinter, podTemplatePrinter } from './pods.ts';
import { configMapPrinter, endpointsPrinter, eventPrinter, namespacePrinter, nodePrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter, servicePrinter } from './core.ts';
import { pvcPrinter, pvPrinter, storageClassPrinter, volumeAttachmentPrinter } from './storage.ts';
import { controllerRevisionPrinter, cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, replicationControllerPrinter, statefulSetPrinter } from './workloads.ts';
import { apiServicePrinter } from './apiregistration.ts';
import { flowSchemaPrinter, priorityLevelPrinter } from './flowcontrol.ts';
import { admissionPolicyBindingPrinter, mutatingAdmissionPolicyPrinter, validatingAdmissionPolicyPrinter } from './admission-policies.ts';
import { csrPrinter, endpointSlicePrinter, hpaPrinter, ingressClassPrinter, ingressPrinter, leasePrinter, networkPolicyPrinter, pdbPrinter, priorityClassPrinter, roleBindingPrinter, runtimeClassPrinter, webhookConfigurationPrinter } from './other.ts';

export type { Printer, Column, RowCondition } from './types.ts';

/** Name and Created At (an RFC 3339 time; Go prints a missing one as the zero time) */
export const defaultPrinter: Printer = {
  columns: [nameColumn(), col('Created At', 'date')],
  cells: o => [nameOf(o), o.metadata?.creationTimestamp || '0001-01-01T00:00:00Z'],
};

/** keyed by `resource.group` (core resources by plural alone), as Kubernetes names them */
const printers: Record<string, Printer> = {
  pods: podPrinter,
  podtemplates: podTemplatePrinter,
  services: servicePrinter,
  nodes: nodePrinter,
  namespaces: namespacePrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  endpoints: endpointsPrinter,
  events: eventPrinter,
  'events.events.k8s.io': eventPrinter,
  persistentvolumes: pvPrinter,
  persistentvolumeclaims: pvcPrinter,
  resourcequotas: resourceQuotaPrinter,
  replicationcontrollers: replicationControllerPrinter,
  'deployments.apps': deploymentPrinter,
  'replicasets.apps': replicaSetPrinter,
  'statefulsets.apps': statefulSetPrinter,
  'daemonsets.apps': daemonSetPrinter,
  'controllerrevisions.apps': controllerRevisionPrinter,
  'jobs.batch': jobPrinter,
  'cronjobs.batch': cronJobPrinter,
  'leases.coordination.k8s.io': leasePrinter,
  'apiservices.apiregistration.k8s.io': apiServicePrinter,
  'ingresses.networking.k8s.io': ingressPrinter,
  'ingressclasses.networking.k8s.io': ingressClassPrinter,
  'networkpolicies.networking.k8s.io': networkPolicyPrinter,
  'storageclasses.storage.k8s.io': storageClassPrinter,
  'volumeattachments.storage.k8s.io': volumeAttachmentPrinter,
  'rolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'clusterrolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'priorityclasses.scheduling.k8s.io': priorityClassPrinter,
  'horizontalpodautoscalers.autoscaling': hpaPrinter,
  'poddisruptionbudgets.policy': pdbPrinter,
  'certificatesigningrequests.certificates.k8s.io': csrPrinter,
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': webhookConfigurationPrinter,
  'validatingwebhookconfigurations.admissionregistration.k8s.io': webhookConfigurationPrinter,
  'validatingadmissionpolicies.admissionregistration.k8s.io': validatingAdmissionPolicyPrinter,
  'validatingadmissionpolicybindings.admissionregistration.k8s.io': admissionPolicyBindingPrinter,
  'mutatingadmissionpolicies.admissionregistration.k8s.io': mutatingAdmissionPolicyPrinter,
  'mutatingadmissionpolicybindings.admissionregistration.k8s.io': admissionPolicyBindingPrinter,
  'runtimeclasses.node.k8s.io': runtimeClassPrinter,
  'endpointslices.discovery.k8s.io': endpointSlicePrinter,
  'flowschemas.flowcontrol.apiserver.k8s.io': flowSchemaPrinter,
  'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io': priorityLevelPrinter,
};

/** the printer for a group and plural resource; the default one when there is none */
export function printerFor(group: string, resource: string): Printer {
  return printers[group ? `${resource}.${group}` : resource] ?? defaultPrinter;
}

/** whether a resource has printer columns of its own */
export function hasPrinter(group: string, resource: string): boolean {
  return (group ? `${resource}.${group}` : resource) in printers;
}
