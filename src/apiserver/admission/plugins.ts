// The built-in admission plugins, one row each, in the order kube-apiserver runs them
// (its AllOrderedPlugins), with whether kube-apiserver enables each by default. Only plugins
// orch implements are listed: naming another in the flags is the "unknown" error. A new plugin
// is one row here, at its place in Kubernetes' order.

import type { PluginFactory } from './types.ts';
import { alwaysAdmit, alwaysDeny } from './plugins/always.ts';
import { namespaceLifecycle } from './plugins/namespace-lifecycle.ts';
import { validatingAdmissionPolicy } from './plugins/validating-admission-policy/plugin.ts';
import { mutatingAdmissionPolicy } from './plugins/mutating-admission-policy/plugin.ts';

export interface PluginRow {
  name: string;
  /** on unless --disable-admission-plugins names it (kube-apiserver's default-on set) */
  defaultOn: boolean;
  factory: PluginFactory;
}

export const admissionPlugins: readonly PluginRow[] = [
  { name: 'AlwaysAdmit', defaultOn: false, factory: alwaysAdmit },
  { name: 'NamespaceLifecycle', defaultOn: true, factory: namespaceLifecycle },
  // webhooks, ResourceQuota and AlwaysDeny come last in Kubernetes' order
  // (MutatingAdmissionWebhook goes between these two, ValidatingAdmissionWebhook after them)
  { name: 'MutatingAdmissionPolicy', defaultOn: true, factory: mutatingAdmissionPolicy },
  { name: 'ValidatingAdmissionPolicy', defaultOn: true, factory: validatingAdmissionPolicy },
  { name: 'AlwaysDeny', defaultOn: false, factory: alwaysDeny },
];
