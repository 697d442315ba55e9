// Builds src/schema/generated/types.ts: a TypeScript type for every definition of
// ../shared/reference/kubernetes-openapi-v2-release-1.36.json, so strategies, controllers and
// the agent read built-in objects through types rather than Record<string, any>.
//
//   node_modules/node/bin/node scripts/gen-types.ts [output file]
//
// Names: <Group><Version><Kind> (io.k8s.api.core.v1.Pod → CoreV1Pod, io.k8s.api.apps.v1.Deployment
// → AppsV1Deployment, io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta → MetaV1ObjectMeta); a
// definition outside a versioned package is <Package><Kind> (…pkg.version.Info → VersionInfo).
// Quantity, IntOrString and RawExtension keep their own names. Then short aliases for the kinds
// used most (Pod = CoreV1Pod, Deployment = AppsV1Deployment, ObjectMeta = MetaV1ObjectMeta, ...).
//
// Mapping: a field is optional unless the definition requires it; string → string, integer and
// number → number, boolean → boolean, arrays → T[], additionalProperties → Record<string, T>,
// $ref → the referenced type; Quantity and IntOrString → string | number; Time and MicroTime →
// string (their definitions say so); RawExtension, JSON and x-kubernetes-preserve-unknown-fields
// → unknown; an object with no properties → Record<string, unknown>. Descriptions are not copied.
//
// Output is deterministic (definitions and fields sorted, one field per line) so diffs stay small.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceName = 'kubernetes-openapi-v2-release-1.36.json';
const source = resolve(repoRoot, '../shared/reference', sourceName);
const out = process.argv[2] ? resolve(process.argv[2]) : join(repoRoot, 'src/schema/generated/types.ts');

interface Schema {
  type?: string;
  format?: string;
  $ref?: string;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

const definitions = (JSON.parse(readFileSync(source, 'utf8')) as { definitions: Record<string, Schema> }).definitions;

const pascal = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map(p => p[0]!.toUpperCase() + p.slice(1)).join('');

// values that are not objects of their own, whatever their definition says
const special: Record<string, [string, string]> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': ['Quantity', 'string | number'],
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': ['IntOrString', 'string | number'],
  'io.k8s.apimachinery.pkg.runtime.RawExtension': ['RawExtension', 'unknown'],
};

// short names for the kinds (and the parts of them) code reads most
const aliases: Record<string, string> = {
  Affinity: 'io.k8s.api.core.v1.Affinity',
  Binding: 'io.k8s.api.core.v1.Binding',
  Capabilities: 'io.k8s.api.core.v1.Capabilities',
  ConfigMap: 'io.k8s.api.core.v1.ConfigMap',
  Condition: 'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  Container: 'io.k8s.api.core.v1.Container',
  ContainerPort: 'io.k8s.api.core.v1.ContainerPort',
  ContainerState: 'io.k8s.api.core.v1.ContainerState',
  ContainerStatus: 'io.k8s.api.core.v1.ContainerStatus',
  ControllerRevision: 'io.k8s.api.apps.v1.ControllerRevision',
  CronJob: 'io.k8s.api.batch.v1.CronJob',
  DaemonSet: 'io.k8s.api.apps.v1.DaemonSet',
  Deployment: 'io.k8s.api.apps.v1.Deployment',
  EndpointSlice: 'io.k8s.api.discovery.v1.EndpointSlice',
  Endpoints: 'io.k8s.api.core.v1.Endpoints',
  EnvVar: 'io.k8s.api.core.v1.EnvVar',
  Event: 'io.k8s.api.core.v1.Event',
  Job: 'io.k8s.api.batch.v1.Job',
  LabelSelector: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  Lease: 'io.k8s.api.coordination.v1.Lease',
  ListMeta: 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  ManagedFieldsEntry: 'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
  Namespace: 'io.k8s.api.core.v1.Namespace',
  Node: 'io.k8s.api.core.v1.Node',
  NodeCondition: 'io.k8s.api.core.v1.NodeCondition',
  NodeSelectorTerm: 'io.k8s.api.core.v1.NodeSelectorTerm',
  NodeSpec: 'io.k8s.api.core.v1.NodeSpec',
  NodeStatus: 'io.k8s.api.core.v1.NodeStatus',
  ObjectMeta: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  OwnerReference: 'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
  PersistentVolume: 'io.k8s.api.core.v1.PersistentVolume',
  PersistentVolumeClaim: 'io.k8s.api.core.v1.PersistentVolumeClaim',
  Pod: 'io.k8s.api.core.v1.Pod',
  PodCondition: 'io.k8s.api.core.v1.PodCondition',
  PodSecurityContext: 'io.k8s.api.core.v1.PodSecurityContext',
  PodSpec: 'io.k8s.api.core.v1.PodSpec',
  PodStatus: 'io.k8s.api.core.v1.PodStatus',
  PodTemplateSpec: 'io.k8s.api.core.v1.PodTemplateSpec',
  Probe: 'io.k8s.api.core.v1.Probe',
  ReplicaSet: 'io.k8s.api.apps.v1.ReplicaSet',
  ResourceRequirements: 'io.k8s.api.core.v1.ResourceRequirements',
  Secret: 'io.k8s.api.core.v1.Secret',
  SecurityContext: 'io.k8s.api.core.v1.SecurityContext',
  Service: 'io.k8s.api.core.v1.Service',
  ServiceAccount: 'io.k8s.api.core.v1.ServiceAccount',
  ServicePort: 'io.k8s.api.core.v1.ServicePort',
  StatefulSet: 'io.k8s.api.apps.v1.StatefulSet',
  Status: 'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  Taint: 'io.k8s.api.core.v1.Taint',
  Toleration: 'io.k8s.api.core.v1.Toleration',
  Volume: 'io.k8s.api.core.v1.Volume',
  VolumeMount: 'io.k8s.api.core.v1.VolumeMount',
};

function typeName(def: string): string {
  if (special[def]) return special[def][0];
  const parts = def.split('.');
  const kind = parts.at(-1)!;
  const version = parts.at(-2)!;
  return /^v\d/.test(version) ? `${pascal(parts.at(-3)!)}${pascal(version)}${kind}` : `${pascal(version)}${kind}`;
}

function tsType(s: Schema, indent: string): string {
  if (s.$ref) return typeName(s.$ref.replace('#/definitions/', ''));
  if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties) return 'unknown';
  if (s['x-kubernetes-int-or-string']) return 'string | number';
  switch (s.type) {
    case 'string': return 'string';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'array': {
      if (!s.items) return 'unknown[]';
      const item = tsType(s.items, indent);
      return item.includes('|') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      if (s.properties) return body(s, indent);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return `Record<string, ${tsType(s.additionalProperties, indent)}>`;
      return 'Record<string, unknown>';
    default: return 'unknown';
  }
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** an object type, one field per line (fields of an inline object one level deeper) */
function body(s: Schema, indent: string): string {
  const required = new Set(s.required ?? []);
  const inner = indent + '  ';
  const fields = Object.keys(s.properties ?? {}).sort().map(name => {
    const key = identifier.test(name) ? name : JSON.stringify(name);
    return `${inner}${key}${required.has(name) ? '' : '?'}: ${tsType(s.properties![name]!, inner)};\n`;
  });
  return fields.length ? `{\n${fields.join('')}${indent}}` : 'Record<string, unknown>';
}

const seen = new Map<string, string>();
const claim = (name: string, what: string) => {
  if (seen.has(name)) throw new Error(`${what} and ${seen.get(name)} would both be ${name}`);
  seen.set(name, what);
};
const blocks: string[] = [];
for (const def of Object.keys(definitions).sort()) {
  const name = typeName(def);
  claim(name, def);
  const s = definitions[def]!;
  if (special[def]) blocks.push(`export type ${name} = ${special[def][1]};`);
  else if (s.properties && Object.keys(s.properties).length) blocks.push(`export interface ${name} ${body(s, '')}`);
  else blocks.push(`export type ${name} = ${tsType(s, '')};`);
}
const aliasLines = Object.keys(aliases).sort().map(alias => {
  const def = aliases[alias]!;
  if (!definitions[def]) throw new Error(`alias ${alias}: no definition ${def}`);
  claim(alias, `alias of ${def}`);
  return `export type ${alias} = ${typeName(def)};`;
});

const header = [
  `// Generated by scripts/gen-types.ts from ${sourceName}. Do not edit by hand: npm run gen.`,
  '// One type per OpenAPI definition, named <Group><Version><Kind> (CoreV1Pod, AppsV1Deployment,',
  '// MetaV1ObjectMeta); fields optional unless required. Short aliases for common kinds at the end.',
  '', '',
].join('\n');
const text = header + blocks.join('\n') + '\n\n// Short names for the kinds used most.\n' + aliasLines.join('\n') + '\n';
writeFileSync(out, text);
console.log(`wrote ${blocks.length} types and ${aliasLines.length} aliases to ${out}`);
