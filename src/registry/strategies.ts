// Which strategy each resource uses. Resources not named here use the default strategy.

import type { ResourceInfo } from '../schema/types.ts';
import { defaultStrategy, strategyWith, type Strategy } from './strategy.ts';
import { namespaceStrategy } from './core/namespaces.ts';
import { podStrategy } from './core/pods.ts';
import { serviceStrategy } from './core/services.ts';
import { workloadStrategy } from './apps/workloads.ts';
import { templateWarningHooks } from './warnings/workload-warnings.ts';
import { cronJobStrategy, jobStrategy } from './batch/jobs.ts';
import { validateImmutableData } from './validation/immutable.ts';
import { secretStrategy } from './core/secrets.ts';
import { autoscalerStrategy } from './autoscaling/hpa.ts';
import { validateConfigMapSize } from './validation/data-size.ts';
import { persistentVolumeClaimStrategy, persistentVolumeStrategy } from './core/persistent-volumes.ts';
import { storageClassStrategy } from './storage/storage-classes.ts';
import { limitRangeStrategy } from './core/limit-ranges.ts';
import { validateResourceQuota, validateResourceQuotaUpdate } from './validation/resource-quota.ts';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './admissionregistration/webhook-configurations.ts';
import { csrStrategy } from './certificates/csr.ts';
import { priorityClassStrategy } from './scheduling/priority-classes.ts';
import { networkPolicyStrategy } from './networking/network-policies.ts';
import { crdStrategy } from './apiextensions/crd-strategy.ts';
import { customResourceStrategy } from './apiextensions/custom-resource-strategy.ts';
import { validateAPIService } from './apiregistration/apiservice-validation.ts';
import { flowSchemaStrategy, priorityLevelStrategy } from './flowcontrol/strategies.ts';
import { validateMutatingPolicy, validatePolicyBinding, validateValidatingPolicy } from './admissionregistration/policy-validation.ts';

const createOnUpdate = strategyWith({ allowCreateOnUpdate: true });
const rbacNames = strategyWith({ allowCreateOnUpdate: true, nameRule: 'path-segment' });

const table: Record<string, Strategy> = {
  'namespaces': namespaceStrategy,
  'pods': podStrategy,
  'nodes': strategyWith({ keepsStatusOnCreate: true }),
  'configmaps': strategyWith({
    validateCreate: validateConfigMapSize,
    validateUpdate: (obj, old) => [...validateConfigMapSize(obj), ...validateImmutableData(obj, old)],
  }),
  'secrets': secretStrategy,
  'services': serviceStrategy,
  'persistentvolumes': persistentVolumeStrategy,
  'persistentvolumeclaims': persistentVolumeClaimStrategy,
  'storageclasses.storage.k8s.io': storageClassStrategy,
  'endpoints': createOnUpdate,
  'events': createOnUpdate,
  'events.events.k8s.io': createOnUpdate,
  'leases.coordination.k8s.io': createOnUpdate,
  'limitranges': limitRangeStrategy,
  'resourcequotas': strategyWith({ validateCreate: validateResourceQuota, validateUpdate: validateResourceQuotaUpdate }),
  'apiservices.apiregistration.k8s.io': strategyWith({ nameRule: 'path-segment', validateCreate: validateAPIService, validateUpdate: validateAPIService }),
  'roles.rbac.authorization.k8s.io': rbacNames,
  'rolebindings.rbac.authorization.k8s.io': rbacNames,
  'clusterroles.rbac.authorization.k8s.io': rbacNames,
  'clusterrolebindings.rbac.authorization.k8s.io': rbacNames,
  'deployments.apps': { ...workloadStrategy('deployments'), ...templateWarningHooks.deployments },
  'replicasets.apps': { ...workloadStrategy('replicasets'), ...templateWarningHooks.replicasets },
  'statefulsets.apps': { ...workloadStrategy('statefulsets'), ...templateWarningHooks.statefulsets },
  'daemonsets.apps': { ...workloadStrategy('daemonsets'), ...templateWarningHooks.daemonsets },
  'replicationcontrollers': { ...workloadStrategy('replicationcontrollers'), ...templateWarningHooks.replicationcontrollers },
  'jobs.batch': { ...jobStrategy, ...templateWarningHooks.jobs },
  'cronjobs.batch': { ...cronJobStrategy, ...templateWarningHooks.cronjobs },
  'podtemplates': strategyWith(templateWarningHooks.podtemplates!),
  // status.observedGeneration of a budget says which spec the disruption controller counted for
  'poddisruptionbudgets.policy': strategyWith({ tracksGeneration: true }),
  'horizontalpodautoscalers.autoscaling': autoscalerStrategy,
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': mutatingWebhookConfigurationStrategy,
  'validatingwebhookconfigurations.admissionregistration.k8s.io': validatingWebhookConfigurationStrategy,
  'certificatesigningrequests.certificates.k8s.io': csrStrategy,
  'priorityclasses.scheduling.k8s.io': priorityClassStrategy,
  'networkpolicies.networking.k8s.io': networkPolicyStrategy,
  'validatingadmissionpolicies.admissionregistration.k8s.io': strategyWith({ tracksGeneration: true, validateCreate: validateValidatingPolicy, validateUpdate: validateValidatingPolicy }),
  'validatingadmissionpolicybindings.admissionregistration.k8s.io': strategyWith({ validateCreate: validatePolicyBinding, validateUpdate: validatePolicyBinding }),
  'mutatingadmissionpolicies.admissionregistration.k8s.io': strategyWith({ tracksGeneration: true, validateCreate: validateMutatingPolicy, validateUpdate: validateMutatingPolicy }),
  'mutatingadmissionpolicybindings.admissionregistration.k8s.io': strategyWith({ validateCreate: validatePolicyBinding, validateUpdate: validatePolicyBinding }),
  'customresourcedefinitions.apiextensions.k8s.io': crdStrategy,
  'flowschemas.flowcontrol.apiserver.k8s.io': flowSchemaStrategy,
  'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io': priorityLevelStrategy,
};

export function strategyFor(info: Pick<ResourceInfo, 'group' | 'resource'> & { custom?: ResourceInfo['custom'] }): Strategy {
  if (info.custom) return customResourceStrategy(info as ResourceInfo);
  return table[info.group ? `${info.resource}.${info.group}` : info.resource] ?? defaultStrategy;
}
