// `--enable-admission-plugins` and `--disable-admission-plugins`, taken by `orch server` and
// `orch up` with kube-apiserver's names, meanings and errors: plugins named are added to or
// taken from kube-apiserver's default-on set, and run in Kubernetes' order whatever the order given.

import type { Flag } from './command.ts';
import { flag } from './command.ts';
import { enabledAdmissionPlugins, pluginList, type AdmissionFlags } from '../apiserver/admission/options.ts';
import { admissionPlugins } from '../apiserver/admission/plugins.ts';

const names = () => admissionPlugins.map(p => p.name).join(', ');

export const admissionFlags: Record<string, Flag> = {
  // NodeRestriction is off in kube-apiserver but on here, as kubeadm turns it on: the Node
  // authorizer leaves nodes' writes to it
  'enable-admission-plugins': { type: 'string', default: 'NodeRestriction', description: `admission plugins to enable besides the default-on ones (${admissionPlugins.filter(p => p.defaultOn).map(p => p.name).join(', ')}), comma-separated; known: ${names()}` },
  'disable-admission-plugins': { type: 'string', default: '', description: 'admission plugins to disable, even default-on ones, comma-separated' },
  'admission-control-config-file': { type: 'string', default: '', description: 'an AdmissionConfiguration (apiserver.config.k8s.io/v1) with plugins\' configurations (PodSecurity: defaults and exemptions)' },
};

/** the flags as the server takes them; bad names are a usage error with kube-apiserver's message */
export function admissionOptions(values: Record<string, string | boolean | undefined>): { admission: AdmissionFlags } {
  const admission = {
    enable: pluginList(String(values['enable-admission-plugins'] ?? 'NodeRestriction')),
    disable: pluginList(String(values['disable-admission-plugins'] ?? '')),
    configFile: String(values['admission-control-config-file'] ?? '') || undefined,
  };
  flag(() => enabledAdmissionPlugins(admission));
  return { admission };
}
