// `--enable-admission-plugins`, `--disable-admission-plugins` and
// `--admission-control-config-file`, taken by `orch server` and `orch up` with kube-apiserver's
// names and meanings: plugins named are added to or taken from kube-apiserver's default-on set,
// and run in Kubernetes' order whatever the order given. The names are checked, with
// kube-apiserver's errors, when the server starts (apiserver/admission/options.ts): the plugin
// table imports every plugin, which the CLI leaves unloaded until a server runs.

import type { Flag } from './command.ts';

export interface AdmissionFlagValues {
  enable: string[];
  disable: string[];
  configFile?: string;
}

export const admissionFlags: Record<string, Flag> = {
  // NodeRestriction is off in kube-apiserver but on here, as kubeadm turns it on: the Node
  // authorizer leaves nodes' writes to it
  'enable-admission-plugins': { type: 'string', default: 'NodeRestriction', description: 'admission plugins to enable besides the default-on ones (Kubernetes\' names), comma-separated' },
  'disable-admission-plugins': { type: 'string', default: '', description: 'admission plugins to disable, even default-on ones, comma-separated' },
  'admission-control-config-file': { type: 'string', default: '', description: 'an AdmissionConfiguration (apiserver.config.k8s.io/v1) with plugins\' configurations (PodSecurity: defaults and exemptions)' },
};

/** a comma-separated flag value as a list (spaces and empty entries dropped) */
function list(value: string): string[] {
  return value.split(',').map(s => s.trim()).filter(Boolean);
}

export function admissionOptions(values: Record<string, string | boolean | undefined>): { admission: AdmissionFlagValues } {
  return {
    admission: {
      enable: list(String(values['enable-admission-plugins'] ?? 'NodeRestriction')),
      disable: list(String(values['disable-admission-plugins'] ?? '')),
      configFile: String(values['admission-control-config-file'] ?? '') || undefined,
    },
  };
}
