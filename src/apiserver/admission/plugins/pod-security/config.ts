// PodSecurity's configuration from the admission configuration file: the levels a namespace
// without labels gets (`defaults`) and who is never checked (`exemptions`: users, runtime
// classes, namespaces), as pod-security.admission.config.k8s.io PodSecurityConfiguration says.

import type { Defaults } from './policy.ts';

export interface PodSecurityConfig {
  defaults: Defaults;
  exemptUsers: ReadonlySet<string>;
  exemptRuntimeClasses: ReadonlySet<string>;
  exemptNamespaces: ReadonlySet<string>;
}

type Raw = { apiVersion?: string; kind?: string; defaults?: Record<string, string>; exemptions?: { usernames?: string[]; runtimeClasses?: string[]; namespaces?: string[] } };

export function podSecurityConfig(raw: unknown): PodSecurityConfig {
  const c = (raw ?? {}) as Raw;
  if (raw !== undefined && (c.kind !== 'PodSecurityConfiguration' || !/^pod-security\.admission\.config\.k8s\.io\/v1(beta1|alpha1)?$/.test(c.apiVersion ?? ''))) {
    throw new Error('PodSecurity: the configuration is not a pod-security.admission.config.k8s.io/v1 PodSecurityConfiguration');
  }
  return {
    defaults: c.defaults ?? {},
    exemptUsers: new Set(c.exemptions?.usernames ?? []),
    exemptRuntimeClasses: new Set(c.exemptions?.runtimeClasses ?? []),
    exemptNamespaces: new Set(c.exemptions?.namespaces ?? []),
  };
}
