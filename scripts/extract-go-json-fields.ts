// Builds scripts/data/go-json-fields.json: for every OpenAPI definition of the reference that
// has a Go struct in the given Kubernetes modules, its JSON fields in Go struct order, each with
// the JSON Go's encoder writes for it when it is unset, or null when Go leaves it out.
//
// The OpenAPI document cannot say this exactly. Its `required` lists come from `+optional`
// comments, not from the json tags, so they miss fields Go always writes (a struct value such as
// a container's `resources: {}` or a Service's `status.loadBalancer: {}`, a Time without
// omitzero as `null`, an Event's `reportingComponent: ""`) and list fields Go omits when empty
// (`omitempty` on a field marked `+required`). The json tags and field types of the Go structs
// are the truth, so they are read here, once, from checkouts of the modules:
//
//   node scripts/extract-go-json-fields.ts DIR=IMPORT_PATH ... [--out=FILE]
//
// for example, with the modules of the Kubernetes release the reference describes (the data
// in the repository was read from k8s.io/api, apimachinery and apiextensions-apiserver v0.36.3
// and kube-aggregator v0.36.2):
//   node scripts/extract-go-json-fields.ts api=k8s.io/api apimachinery=k8s.io/apimachinery \
//     apiextensions-apiserver=k8s.io/apiextensions-apiserver kube-aggregator=k8s.io/kube-aggregator
//
// then `npm run gen` turns the result into src/schema/generated/json-zero-fields.json (and the
// field order of definitions without a protobuf message). This reads declarations only: type
// names, field names, types and json tags.

import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const openapiName = 'kubernetes-openapi-v2-release-1.36.json';
const definitions = (JSON.parse(readFileSync(resolve(repoRoot, '../shared/reference', openapiName), 'utf8')) as { definitions: Record<string, { properties?: Record<string, unknown> }> }).definitions;
const outArg = process.argv.find(a => a.startsWith('--out='));
const out = outArg ? resolve(outArg.slice('--out='.length)) : join(repoRoot, 'scripts/data/go-json-fields.json');

interface Field { name: string | undefined; type: string; json: string; omitempty: boolean; omitzero: boolean; inline: boolean }
interface Decl { pkg: string; imports: Map<string, string>; struct?: Field[]; alias?: string }

const modules = process.argv.slice(2).filter(a => !a.startsWith('--')).map(a => {
  const eq = a.indexOf('=');
  if (eq < 0) throw new Error(`expected DIR=IMPORT_PATH, got ${a}`);
  return { dir: resolve(a.slice(0, eq)), importPath: a.slice(eq + 1) };
});
if (modules.length === 0) {
  console.error('usage: node scripts/extract-go-json-fields.ts DIR=IMPORT_PATH ...');
  process.exit(2);
}

/** declarations by package import path, then type name */
const packages = new Map<string, Map<string, Decl>>();

function walk(dir: string, visit: (file: string) => void): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) { if (name !== 'testdata' && name !== 'vendor') walk(p, visit); } else visit(p);
  }
}

function parseImports(src: string, pkgDir: string): Map<string, string> {
  const imports = new Map<string, string>();
  const block = /^import\s*\(([\s\S]*?)^\)/m.exec(src)?.[1] ?? '';
  const singles = [...src.matchAll(/^import\s+(\w+\s+)?"([^"]+)"/gm)].map(m => `${m[1] ?? ''}"${m[2]}"`).join('\n');
  for (const m of `${block}\n${singles}`.matchAll(/^\s*(?:(\w+)\s+)?"([^"]+)"/gm)) {
    imports.set(m[1] ?? m[2]!.split('/').pop()!, m[2]!);
  }
  imports.set('', pkgDir);
  return imports;
}

function parseFields(body: string): Field[] {
  const fields: Field[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('//')) continue;
    const named = /^(\w+)\s+([^\s`]+)\s+`([^`]*)`/.exec(line);
    const embedded = named ? undefined : /^([\w.*]+)\s+`([^`]*)`/.exec(line);
    if (!named && !embedded) continue;
    const tag = named ? named[3]! : embedded![2]!;
    const json = /json:"([^"]*)"/.exec(tag)?.[1];
    if (json === undefined) continue;
    const [jsonName, ...opts] = json.split(',');
    fields.push({ name: named?.[1], type: named ? named[2]! : embedded![1]!, json: jsonName!, omitempty: opts.includes('omitempty'), omitzero: opts.includes('omitzero'), inline: opts.includes('inline') });
  }
  return fields;
}

for (const { dir, importPath } of modules) {
  walk(dir, file => {
    if (!file.endsWith('.go') || file.endsWith('_test.go') || /\/(zz_generated|generated\.)[^/]*$/.test(file)) return;
    const src = readFileSync(file, 'utf8');
    const pkg = `${importPath}/${relative(dir, dirname(file))}`.replace(/\/$/, '');
    const imports = parseImports(src, pkg);
    let types = packages.get(pkg);
    if (!types) packages.set(pkg, types = new Map());
    for (const m of src.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) types.set(m[1]!, { pkg, imports, struct: parseFields(m[2]!) });
    for (const m of src.matchAll(/^type (\w+) struct\s*\{\s*\}/gm)) types.set(m[1]!, { pkg, imports, struct: [] });
    for (const m of src.matchAll(/^(?:type |\t)(\w+) (?:= )?([^\s{=(][^\n]*)$/gm)) {
      const alias = m[2]!.split('//')[0]!.trim();
      if (alias.startsWith('struct') || alias.startsWith('interface') || types.has(m[1]!) || !/^[\w.*[\]]+$/.test(alias)) continue;
      types.set(m[1]!, { pkg, imports, alias });
    }
  });
}

const meta = 'k8s.io/apimachinery/pkg/apis/meta/v1';
// types whose own MarshalJSON decides what their zero value looks like
const marshalled: Record<string, string> = {
  [`${meta}.Time`]: 'null', [`${meta}.MicroTime`]: 'null', [`${meta}.Duration`]: '"0s"', [`${meta}.FieldsV1`]: 'null',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': '"0"',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': '0',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'null',
  'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON': 'null',
};
const stringTypes = new Set(['string', 'k8s.io/apimachinery/pkg/types.UID', 'k8s.io/apimachinery/pkg/types.NodeName']);
const numberTypes = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', 'byte']);

type Kind = { kind: 'empty-able'; zero: string } | { kind: 'struct'; pkg: string; name: string } | { kind: 'marshalled'; zero: string } | { kind: 'unknown'; type: string };

function resolveType(type: string, decl: Pick<Decl, 'pkg' | 'imports'>): Kind {
  if (type.startsWith('*') || type.startsWith('[]') || type.startsWith('map[') || type === 'any' || type === 'interface{}') return { kind: 'empty-able', zero: 'null' };
  if (type === 'bool') return { kind: 'empty-able', zero: 'false' };
  if (numberTypes.has(type)) return { kind: 'empty-able', zero: '0' };
  if (type === 'string') return { kind: 'empty-able', zero: '""' };
  const dot = type.indexOf('.');
  const pkg = dot < 0 ? decl.pkg : decl.imports.get(type.slice(0, dot));
  const name = dot < 0 ? type : type.slice(dot + 1);
  if (!pkg) return { kind: 'unknown', type };
  const full = `${pkg}.${name}`;
  if (marshalled[full] !== undefined) return { kind: 'marshalled', zero: marshalled[full]! };
  if (stringTypes.has(full)) return { kind: 'empty-able', zero: '""' };
  const d = packages.get(pkg)?.get(name);
  if (!d) return { kind: 'unknown', type: full };
  if (d.struct) return { kind: 'struct', pkg, name };
  return resolveType(d.alias!, d);
}

/** a struct's JSON fields in order, embedded (inline) structs expanded in place */
function jsonFields(pkg: string, name: string): Array<{ field: Field; kind: Kind }> {
  const decl = packages.get(pkg)!.get(name)!;
  const outFields: Array<{ field: Field; kind: Kind }> = [];
  for (const field of decl.struct!) {
    if (field.json === '-') continue;
    const embedded = field.name === undefined || field.inline;
    const kind = resolveType(embedded ? field.type.replace(/^\*/, '') : field.type, decl);
    if (embedded && field.json === '') {
      if (kind.kind === 'struct') outFields.push(...jsonFields(kind.pkg, kind.name));
      continue;
    }
    outFields.push({ field, kind });
  }
  return outFields;
}

const unknown = new Set<string>();
const zeros = new Map<string, string>();

/** the JSON Go writes for a field left unset; undefined: the field is left out */
function zeroOf(field: Field, kind: Kind): string | undefined {
  if (field.omitzero) return undefined;
  switch (kind.kind) {
    case 'empty-able': return field.omitempty ? undefined : kind.zero;
    case 'marshalled': return kind.zero;
    case 'unknown': unknown.add(kind.type); return undefined;
    case 'struct': return structZero(kind.pkg, kind.name);
  }
}

function structZero(pkg: string, name: string): string {
  const key = `${pkg}.${name}`;
  let z = zeros.get(key);
  if (z === undefined) {
    zeros.set(key, '{}');
    const parts = jsonFields(pkg, name).flatMap(({ field, kind }) => {
      const fz = zeroOf(field, kind);
      return fz === undefined ? [] : [`${JSON.stringify(field.json)}:${fz}`];
    });
    zeros.set(key, z = `{${parts.join(',')}}`);
  }
  return z;
}

// the meta.k8s.io views the server writes that the OpenAPI document does not define: every field
const views = new Set(['Table', 'TableColumnDefinition', 'TableRow', 'TableRowCondition', 'PartialObjectMetadata', 'PartialObjectMetadataList'].map(n => `io.k8s.apimachinery.pkg.apis.meta.v1.${n}`));

const lines: string[] = [];
for (const [pkg, types] of [...packages].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const prefix = `io.${pkg.replace(/^k8s\.io\//, 'k8s.').replace(/\//g, '.')}`;
  for (const [name, decl] of [...types].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const defName = `${prefix}.${name}`;
    const props = definitions[defName]?.properties;
    if (!decl.struct || (!props && !views.has(defName))) continue;
    const fields = jsonFields(pkg, name).filter(f => !props || f.field.json in props).map(({ field, kind }) => [field.json, zeroOf(field, kind) ?? null]);
    lines.push(`${JSON.stringify(defName)}: ${JSON.stringify(fields)}`);
  }
}
mkdirSync(dirname(out), { recursive: true });
const from = modules.map(m => m.importPath).join(', ');
writeFileSync(out, `{\n"//": "extracted by scripts/extract-go-json-fields.ts from the Go structs of ${from} for the definitions of ${openapiName}: [json name, JSON written when unset or null when omitted]",\n${lines.join(',\n')}\n}\n`);
console.log(`wrote the JSON fields of ${lines.length} definitions to ${out}`);
if (unknown.size) console.log(`types not resolved (their fields are taken as omitted): ${[...unknown].sort().join(', ')}`);
