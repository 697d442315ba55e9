// The built-in admission plugins, one row each, in the order kube-apiserver runs them
// (its AllOrderedPlugins), with whether kube-apiserver enables each by default. Only plugins
// orch implements are listed: naming another in the flags is the "unknown" error. A new plugin
// is one row here, at its place in Kubernetes' order.

import type { PluginFactory } from './types.ts';
import { alwaysAdmit, alwaysDeny } from './plugins/always.ts';
import { namespaceLifecycle } from './plugins/namespace-lifecycle.ts';
import { serviceAccount } from './plugins/service-account.ts';
import { nodeRestriction } from './plugins/node-restriction.ts';
import { podSecurity } from './plugins/pod-security.ts';
import { defaultTolerationSeconds } from './plugins/default-toleration-seconds.ts';
import { priority } from './plugins/priority.ts';
import { defaultStorageClass } from './plugins/default-storage-class.ts';
import { storageObjectInUseProtection } from './plugins/storage-object-in-use-protection.ts';
import { validatingAdmissionPolicy } from './plugins/validating-admission-policy/plugin.ts';
import { mutatingAdmissionPolicy } from './plugins/mutating-admission-policy/plugin.ts';
import { limitRanger } from './plugins/limit-ranger.ts';
import { resourceQuota } from './plugins/resource-quota.ts';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './plugins/webhooks/index.ts';
import { certificateApproval, certificateSigning, certificateSubjectRestriction } from './plugins/certificates.ts';

export interface PluginRow {
  name: string;
  /** on unless --disable-admission-plugins names it (kube-apiserver's default-on set) */
  defaultOn: boolean;
  factory: PluginFactory;
}

export const admissionPlugins: readonly PluginRow[] = [
  { name: 'AlwaysAdmit', defaultOn: false, factory: alwaysAdmit },
  { name: 'NamespaceLifecycle', defaultOn: true, factory: namespaceLifecycle },
  { name: 'LimitRanger', defaultOn: true, factory: limitRanger },
  { name: 'ServiceAccount', defaultOn: true, factory: serviceAccount },
  // off in kube-apiserver; orch server and orch up enable it, as kubeadm does (see cli/admission-flags.ts)
  { name: 'NodeRestriction', defaultOn: false, factory: nodeRestriction },
  { name: 'PodSecurity', defaultOn: true, factory: podSecurity },
  { name: 'Priority', defaultOn: true, factory: priority },
  { name: 'DefaultTolerationSeconds', defaultOn: true, factory: defaultTolerationSeconds },
  { name: 'DefaultStorageClass', defaultOn: true, factory: defaultStorageClass },
  { name: 'StorageObjectInUseProtection', defaultOn: true, factory: storageObjectInUseProtection },
  { name: 'CertificateApproval', defaultOn: true, factory: certificateApproval },
  { name: 'CertificateSigning', defaultOn: true, factory: certificateSigning },
  { name: 'CertificateSubjectRestriction', defaultOn: true, factory: certificateSubjectRestriction },
  // policies and webhooks, ResourceQuota and AlwaysDeny come last in Kubernetes' order
  { name: 'MutatingAdmissionPolicy', defaultOn: true, factory: mutatingAdmissionPolicy },
  { name: 'MutatingAdmissionWebhook', defaultOn: true, factory: mutatingAdmissionWebhook },
  { name: 'ValidatingAdmissionPolicy', defaultOn: true, factory: validatingAdmissionPolicy },
  { name: 'ValidatingAdmissionWebhook', defaultOn: true, factory: validatingAdmissionWebhook },
  { name: 'ResourceQuota', defaultOn: true, factory: resourceQuota },
  { name: 'AlwaysDeny', defaultOn: false, factory: alwaysDeny },
];
