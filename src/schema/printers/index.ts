// Which printer each resource uses; everything else gets Name and Created At.

import type { Printer } from './types.ts';
import { podPrinter } from './pods.ts';
import { configMapPrinter, endpointsPrinter, eventPrinter, limitRangePrinter, namespacePrinter, nodePrinter, pvcPrinter, pvPrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter, servicePrinter } from './core.ts';
import { cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, replicationControllerPrinter, statefulSetPrinter } from './workloads.ts';
import { createdAtPrinter, csrPrinter, hpaPrinter, ingressClassPrinter, ingressPrinter, leasePrinter, networkPolicyPrinter, pdbPrinter, priorityClassPrinter, roleBindingPrinter, storageClassPrinter } from './other.ts';

export type { Printer, Column } from './types.ts';

const printers: Record<string, Printer> = {
  pods: podPrinter,
  services: servicePrinter,
  nodes: nodePrinter,
  namespaces: namespacePrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  endpoints: endpointsPrinter,
  events: eventPrinter,
  persistentvolumes: pvPrinter,
  persistentvolumeclaims: pvcPrinter,
  limitranges: limitRangePrinter,
  resourcequotas: resourceQuotaPrinter,
  replicationcontrollers: replicationControllerPrinter,
  'deployments.apps': deploymentPrinter,
  'replicasets.apps': replicaSetPrinter,
  'statefulsets.apps': statefulSetPrinter,
  'daemonsets.apps': daemonSetPrinter,
  'jobs.batch': jobPrinter,
  'cronjobs.batch': cronJobPrinter,
  'leases.coordination.k8s.io': leasePrinter,
  'ingresses.networking.k8s.io': ingressPrinter,
  'ingressclasses.networking.k8s.io': ingressClassPrinter,
  'networkpolicies.networking.k8s.io': networkPolicyPrinter,
  'storageclasses.storage.k8s.io': storageClassPrinter,
  'roles.rbac.authorization.k8s.io': createdAtPrinter,
  'clusterroles.rbac.authorization.k8s.io': createdAtPrinter,
  'rolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'clusterrolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'priorityclasses.scheduling.k8s.io': priorityClassPrinter,
  'horizontalpodautoscalers.autoscaling': hpaPrinter,
  'poddisruptionbudgets.policy': pdbPrinter,
  'certificatesigningrequests.certificates.k8s.io': csrPrinter,
};

export function printerFor(group: string, resource: string): Printer {
  return printers[group ? `${resource}.${group}` : resource] ?? createdAtPrinter;
}
