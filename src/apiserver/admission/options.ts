// `--enable-admission-plugins` and `--disable-admission-plugins` as kube-apiserver reads them:
// the default-on plugins, plus those enabled, minus those disabled, always run in the table's
// order whatever order the flags list them in; unknown names and a plugin named in both are
// errors worded as kube-apiserver words them.

import { admissionPlugins } from './plugins.ts';

export interface AdmissionFlags {
  enable?: readonly string[];
  disable?: readonly string[];
  /** --admission-control-config-file */
  configFile?: string;
}

/** a comma-separated flag value as a list (empty entries dropped, as pflag's StringSlice keeps none of them here) */
export function pluginList(value: string | undefined): string[] {
  return (value ?? '').split(',').map(s => s.trim()).filter(Boolean);
}

/** the errors kube-apiserver reports for these flags (none: they are fine) */
export function admissionFlagErrors(flags: AdmissionFlags): string[] {
  const known = new Set(admissionPlugins.map(p => p.name));
  const errors: string[] = [];
  for (const n of flags.enable ?? []) if (!known.has(n)) errors.push(`enable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  for (const n of flags.disable ?? []) if (!known.has(n)) errors.push(`disable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  const disabled = new Set(flags.disable ?? []);
  const both = [...new Set(flags.enable ?? [])].filter(n => disabled.has(n)).sort();
  if (both.length) errors.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errors;
}

/** the plugins to run, in order; throws an Error with kube-apiserver's message on bad flags */
export function enabledAdmissionPlugins(flags: AdmissionFlags): string[] {
  const errors = admissionFlagErrors(flags);
  // several errors print as Go's aggregate does: [a, b]
  if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  const enabled = new Set(flags.enable ?? []);
  const disabled = new Set(flags.disable ?? []);
  return admissionPlugins.filter(p => enabled.has(p.name) || (p.defaultOn && !disabled.has(p.name))).map(p => p.name);
}
