// `--admission-control-config-file`: kube-apiserver's AdmissionConfiguration, naming for each
// plugin its configuration, inline (`configuration`) or in a file of its own (`path`, relative to
// this one). Plugins read theirs from AdmissionDeps.pluginConfig by their name.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';

interface PluginEntry { name?: string; path?: string; configuration?: unknown }

export async function readAdmissionConfig(path: string): Promise<Record<string, unknown>> {
  // loaded only when a configuration is given (an idle CLI keeps YAML unloaded)
  const { parse } = await import('yaml');
  const doc = parse(await readFile(path, 'utf8')) as { apiVersion?: string; kind?: string; plugins?: PluginEntry[] } | null;
  if (!doc || doc.kind !== 'AdmissionConfiguration' || !/^apiserver\.config\.k8s\.io\/v1(alpha1)?$/.test(doc.apiVersion ?? '')) {
    throw new Error(`unable to read admission control configuration from ${JSON.stringify(path)}: not an apiserver.config.k8s.io/v1 AdmissionConfiguration`);
  }
  const out: Record<string, unknown> = {};
  for (const p of doc.plugins ?? []) {
    if (!p.name) continue;
    if (p.configuration !== undefined) out[p.name] = p.configuration;
    else if (p.path) out[p.name] = parse(await readFile(isAbsolute(p.path) ? p.path : join(dirname(path), p.path), 'utf8'));
  }
  return out;
}
