// Builds src/schema/generated/proto-messages.json, the protobuf field table of every
// Kubernetes message, from ../shared/reference/kubernetes-proto-fields.json, cross-checked
// against the OpenAPI definitions so the table carries JSON names, not proto names.
//
//   node_modules/node/bin/node scripts/gen-proto-table.ts [output file]
//
// Each message maps to its fields as [jsonName, number, type, flags, mapValueType?]:
//   flags 1 = repeated, 4 = embedded (its fields are inlined into the parent's JSON object),
//   8 = a zero number or false on the wire means unset (see omitZero below).
// Message types are written out in full. One message per line, sorted, so diffs stay small.
//
// It also writes src/schema/generated/json-field-order.json: for every OpenAPI definition that
// has a message, its JSON field names in Go struct order, which is the order the .proto file
// declares them in (not number order: fields added later get higher numbers wherever they sit),
// embedded structs expanded in place, `kind` and `apiVersion` (TypeMeta) first. Go's encoder
// writes JSON in this order. Definitions without a message (CustomResourceDefinition, APIService,
// …) take the order of their Go struct from scripts/data/go-json-fields.json, which
// scripts/extract-go-json-fields.ts reads from the Go sources; where both exist they agree.
//
// And src/schema/generated/json-zero-fields.json: for every definition of that file, the fields
// Go's encoder writes although they are unset, each with the JSON it writes for it (the zero
// value of a field without omitempty, `{…}` of a struct value, `null` of a Time).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceName = 'kubernetes-proto-fields.json';
const openapiName = 'kubernetes-openapi-v2-release-1.36.json';
const source = resolve(repoRoot, '../shared/reference', sourceName);
const openapiFile = resolve(repoRoot, '../shared/reference', openapiName);
const out = process.argv[2] ? resolve(process.argv[2]) : join(repoRoot, 'src/schema/generated/proto-messages.json');
const orderOut = process.argv[3] ? resolve(process.argv[3]) : join(repoRoot, 'src/schema/generated/json-field-order.json');
const zerosOut = process.argv[4] ? resolve(process.argv[4]) : join(repoRoot, 'src/schema/generated/json-zero-fields.json');
const goFieldsName = 'scripts/data/go-json-fields.json';
const goFields = JSON.parse(readFileSync(join(repoRoot, goFieldsName), 'utf8')) as Record<string, Array<[string, string | null]>>;
delete goFields['//'];

interface Field { name: string; number: number; type: string; label?: string; key?: string; value?: string }
interface File { package: string; messages: Array<{ name: string; fields: Field[] }> }
type Row = [string, number, string, number, string?];

const scalars = new Set(['string', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bytes', 'double', 'float', 'fixed32', 'fixed64']);
const files = (JSON.parse(readFileSync(source, 'utf8')) as { files: File[] }).files;
const definitions = (JSON.parse(readFileSync(openapiFile, 'utf8')) as { definitions: Record<string, { properties?: Record<string, unknown>; required?: string[] }> }).definitions;
const qualify = (pkg: string, t: string) => (scalars.has(t) || t === 'map' || t.includes('.') ? t : `${pkg}.${t}`);
const definitionNames = Object.keys(definitions);

// Messages of versions the OpenAPI document no longer serves borrow the properties of the
// same-named definition in another version of the group.
function propsOf(message: string): Record<string, unknown> | undefined {
  const key = message.replace(/^k8s\.io\./, 'io.k8s.');
  const own = definitions[key]?.properties;
  if (own) return own;
  const m = /^(.*)\.[^.]+\.([^.]+)$/.exec(key);
  if (!m) return undefined;
  const sibling = definitionNames.filter(d => d.startsWith(`${m[1]}.`) && d.endsWith(`.${m[2]}`) && d.split('.').length === key.split('.').length).sort().pop();
  return sibling ? definitions[sibling]!.properties : undefined;
}

const messages = new Map<string, Field[]>();
for (const f of files) {
  for (const m of f.messages) {
    messages.set(`${f.package}.${m.name}`, m.fields.map(fl => ({ ...fl, type: qualify(f.package, fl.type), value: fl.value && qualify(f.package, fl.value) })));
  }
}

// A proto field missing from the JSON properties is either a differently-cased JSON name
// (Webhooks → webhooks, uID → uid) or an embedded struct whose fields the JSON inlines
// (Probe.handler, Volume.volumeSource): most of the embedded message's fields then show up
// among the parent's JSON properties.
function row(message: string, fl: Field): Row {
  const props = propsOf(message);
  let name = fl.name;
  let flags = fl.label === 'repeated' ? 1 : 0;
  if (props && !(name in props)) {
    const recased = Object.keys(props).find(k => k.toLowerCase() === name.toLowerCase());
    const sub = messages.get(fl.type);
    if (recased) name = recased;
    // (a borrowed definition can differ in shape: node v1alpha1 RuntimeClass nests its spec)
    else if (sub && sub.length > 0 && fl.label !== 'repeated' && !['metadata', 'spec', 'status'].includes(name)) {
      // one level deeper too: an embedded struct may itself embed another (RuleWithOperations.rule)
      const lower = new Set(Object.keys(props).map(k => k.toLowerCase()));
      const mostlyInParent = (names: string[]) => names.filter(n => lower.has(n.toLowerCase())).length * 2 > names.length;
      const direct = sub.map(s => s.name);
      const deeper = sub.flatMap(s => [s.name, ...(messages.get(s.type) ?? []).map(t => t.name)]);
      if (mostlyInParent(direct) || mostlyInParent(deeper)) flags |= 4;
    }
  }
  if (omitZero(message, fl)) flags |= 8;
  return fl.type === 'map' ? [name, fl.number, 'map', flags, fl.value!] : [name, fl.number, fl.type, flags];
}

// Go's marshaller writes every non-pointer scalar, so zeros arrive for fields the client never
// set. Pointer fields (replicas, runAsUser, automountServiceAccountToken) must keep their
// zeros, and the wire cannot tell the two apart; so zeros are dropped only where the field is
// known to be a plain omitempty value: optional numbers and flags of status messages, and the
// fields below, which clients such as kubectl send zeroed on every create.
const plainOmitEmpty = new Set([
  'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.generation',
  'k8s.io.api.core.v1.ContainerPort.hostPort',
  'k8s.io.api.core.v1.ServicePort.nodePort',
  'k8s.io.api.core.v1.ServiceSpec.healthCheckNodePort',
  'k8s.io.api.core.v1.ServiceSpec.publishNotReadyAddresses',
  'k8s.io.api.core.v1.Container.stdin', 'k8s.io.api.core.v1.Container.stdinOnce', 'k8s.io.api.core.v1.Container.tty',
  'k8s.io.api.core.v1.EphemeralContainerCommon.stdin', 'k8s.io.api.core.v1.EphemeralContainerCommon.stdinOnce', 'k8s.io.api.core.v1.EphemeralContainerCommon.tty',
  'k8s.io.api.core.v1.PodSpec.hostNetwork', 'k8s.io.api.core.v1.PodSpec.hostPID', 'k8s.io.api.core.v1.PodSpec.hostIPC',
  'k8s.io.api.core.v1.VolumeMount.readOnly',
  'k8s.io.api.apps.v1.DeploymentSpec.minReadySeconds', 'k8s.io.api.apps.v1.DeploymentSpec.paused',
  'k8s.io.api.apps.v1.ReplicaSetSpec.minReadySeconds', 'k8s.io.api.apps.v1.DaemonSetSpec.minReadySeconds',
  'k8s.io.api.apps.v1.StatefulSetSpec.minReadySeconds',
]);
// status fields that are pointers in Go, where zero is a value
const statusPointers = new Set(['collisionCount', 'terminatingReplicas', 'started', 'ready', 'terminating', 'uncountedTerminatedPods']);
const numeric = new Set(['bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'double', 'float', 'fixed32', 'fixed64']);

function omitZero(message: string, fl: Field): boolean {
  if (!numeric.has(fl.type) || fl.label === 'repeated') return false;
  if (plainOmitEmpty.has(`${message}.${fl.name}`)) return true;
  const def = definitions[message.replace(/^k8s\.io\./, 'io.k8s.')];
  return /Status$/.test(message) && !statusPointers.has(fl.name) && def !== undefined && !(def.required ?? []).includes(fl.name);
}

const declared: Record<string, Row[]> = {};
for (const [name, fields] of messages) declared[name] = fields.map(fl => row(name, fl));
const table: Record<string, Row[]> = {};
for (const [name, rows] of Object.entries(declared)) table[name] = [...rows].sort((a, b) => a[1] - b[1]);

function jsonOrder(message: string, seen: Set<string> = new Set()): string[] {
  if (seen.has(message)) return [];
  seen.add(message);
  return (declared[message] ?? []).flatMap(r => (r[3] & 4 ? jsonOrder(r[2], seen) : [r[0]]));
}
const order: Record<string, string[]> = {};
for (const message of Object.keys(declared).sort()) {
  const defName = message.replace(/^k8s\.io\./, 'io.k8s.');
  const props = definitions[defName]?.properties;
  if (!props) continue;
  const own = jsonOrder(message);
  // TypeMeta is not in the message; a `kind` the message declares (StatusDetails) is its own field
  const typeMeta = ['kind', 'apiVersion'].filter(n => n in props && !own.includes(n));
  const names = [...typeMeta, ...own.filter(n => n in props)];
  // fields the OpenAPI document has and the message lacks go last, by name
  for (const n of Object.keys(props).sort()) if (!names.includes(n)) names.push(n);
  order[defName] = names;
}
// definitions without a message: their Go struct's order
for (const [defName, fields] of Object.entries(goFields)) {
  if (order[defName]) continue;
  const names = fields.map(f => f[0]);
  const props = definitions[defName]?.properties ?? {};
  for (const n of Object.keys(props).sort()) if (!names.includes(n)) names.push(n);
  order[defName] = names;
}
const zeroLines = Object.keys(goFields).sort().map(n => `${JSON.stringify(n)}: ${JSON.stringify(Object.fromEntries(goFields[n]!.filter(f => f[1] !== null)))}`);
writeFileSync(zerosOut, `{\n"//": "generated by scripts/gen-proto-table.ts from ${goFieldsName}; do not edit",\n${zeroLines.join(',\n')}\n}\n`);
console.log(`wrote the fields written when unset of ${zeroLines.length} definitions to ${zerosOut}`);

const orderLines = Object.keys(order).sort().map(n => `${JSON.stringify(n)}: ${JSON.stringify(order[n])}`);
writeFileSync(orderOut, `{\n"//": "generated by scripts/gen-proto-table.ts from ${sourceName} and ${openapiName}; do not edit",\n${orderLines.join(',\n')}\n}\n`);
console.log(`wrote the JSON field order of ${orderLines.length} definitions to ${orderOut}`);

const names = Object.keys(table).sort();
const lines = names.map(n => `${JSON.stringify(n)}: ${JSON.stringify(table[n])}`);
writeFileSync(out, `{\n"//": "generated by scripts/gen-proto-table.ts from ${sourceName} and ${openapiName}; do not edit",\n${lines.join(',\n')}\n}\n`);
console.log(`wrote ${names.length} messages to ${out}`);
