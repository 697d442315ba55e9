// PodSecurity's configuration from --admission-control-config-file: a PodSecurityConfiguration
// (pod-security.admission.config.k8s.io v1, v1beta1 or v1alpha1) with the levels a namespace
// without labels gets (`defaults`, each unset one privileged / latest) and who is never checked
// (`exemptions`: usernames, runtimeClasses, namespaces). A bad one stops the server with the
// plugin's errors in kube-apiserver's words.

import { fieldErrorMessage, type FieldError } from '../../../../api/status.ts';
import { dns1123Label, dns1123Subdomain } from '../../../../api/names.ts';
import { levelError, parseLevel, parseVersion, privilegedLatest, versionError, type Mode, type Policy } from './policy.ts';

export interface PodSecurityConfig {
  defaults: Policy;
  exemptUsers: ReadonlySet<string>;
  exemptRuntimeClasses: ReadonlySet<string>;
  exemptNamespaces: ReadonlySet<string>;
}

type Raw = { apiVersion?: string; kind?: string; defaults?: Record<string, unknown>; exemptions?: { usernames?: string[]; runtimeClasses?: string[]; namespaces?: string[] } };

const group = 'pod-security.admission.config.k8s.io';

/** Go's aggregate error text: one message alone, several in brackets */
const aggregate = (msgs: string[]) => (msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`);

function exemptionErrors(list: string[] | undefined, path: string, check: (v: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (list ?? []).forEach((v, i) => {
    const field = `exemptions.${path}[${i}]`;
    const bad = check(v);
    if (bad.length) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: bad.join(', ') });
    else if (seen.has(v)) errs.push({ type: 'FieldValueDuplicate', field, value: v });
    else seen.add(v);
  });
  return errs;
}

export function podSecurityConfig(raw: unknown): PodSecurityConfig {
  if (raw === undefined || raw === null) return { defaults: privilegedLatest, exemptUsers: new Set(), exemptRuntimeClasses: new Set(), exemptNamespaces: new Set() };
  const c = raw as Raw;
  const m = /^pod-security\.admission\.config\.k8s\.io\/(v1|v1beta1|v1alpha1)$/.exec(c.apiVersion ?? '');
  if (!m || c.kind !== 'PodSecurityConfiguration') {
    throw new Error(`no kind ${JSON.stringify(c.kind ?? '')} is registered for version ${JSON.stringify(c.apiVersion ?? '')} in scheme "${group}"`);
  }
  const d = c.defaults ?? {};
  const value = (k: string, dflt: string) => (typeof d[k] === 'string' && d[k] ? d[k] as string : dflt);
  // the defaults are read first: an unreadable level or version is the configuration error
  const defaults = { ...privilegedLatest } as Policy;
  const completeErrors: string[] = [];
  const fieldErrors: FieldError[] = [];
  for (const mode of ['enforce', 'audit', 'warn'] as Mode[]) {
    const level = value(mode, 'privileged');
    const version = value(`${mode}-version`, 'latest');
    const l = parseLevel(level);
    const v = parseVersion(version);
    if (!l) completeErrors.push(`${mode}: ${levelError}`);
    if (v === undefined) completeErrors.push(`${mode}-version: ${versionError}`);
    defaults[mode] = { level: l ?? 'restricted', version: v ?? 'latest' };
  }
  if (completeErrors.length) throw new Error(`PodSecurity configuration error: ${aggregate([...new Set(completeErrors)])}`);
  fieldErrors.push(
    ...exemptionErrors(c.exemptions?.namespaces, 'namespaces', dns1123Label),
    ...exemptionErrors(c.exemptions?.runtimeClasses, 'runtimeClasses', dns1123Subdomain),
    ...exemptionErrors(c.exemptions?.usernames, 'usernames', v => (v === '' ? ['username must not be empty'] : [])),
  );
  if (fieldErrors.length) throw new Error(`PodSecurity invalid: ${aggregate(fieldErrors.map(fieldErrorMessage))}`);
  return {
    defaults,
    exemptUsers: new Set(c.exemptions?.usernames ?? []),
    exemptRuntimeClasses: new Set(c.exemptions?.runtimeClasses ?? []),
    exemptNamespaces: new Set(c.exemptions?.namespaces ?? []),
  };
}
