// Builds the type catalog tables in src/schema/generated/ from the Kubernetes OpenAPI v2
// reference document (../shared/reference relative to the repository root).
//
//   node_modules/node/bin/node scripts/gen-catalog.ts [output directory]
//
// Output is deterministic (sorted keys, one entry per line) so regenerating shows a small diff.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceName = 'kubernetes-openapi-v2-release-1.36.json';
const sourcePath = resolve(repoRoot, '../shared/reference', sourceName);
const outDir = process.argv[2] ? resolve(process.argv[2]) : join(repoRoot, 'src/schema/generated');

interface Gvk { group: string; version: string; kind: string }
interface Operation {
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: Gvk;
  parameters?: Array<{ in?: string; schema?: { $ref?: string } }>;
  responses?: Record<string, { schema?: { $ref?: string; type?: string } }>;
}
type PathItem = Record<string, Operation | unknown>;
interface Doc {
  paths: Record<string, PathItem>;
  definitions: Record<string, unknown>;
}

interface SubEntry {
  name: string; kind: string; group: string; version: string; verbs: Set<string>;
  definition?: string; connect?: boolean;
}
interface Entry {
  group: string; version: string; resource: string; kind: string; namespaced: boolean;
  verbs: Set<string>; definition: string; listDefinition?: string;
  subresources: Map<string, SubEntry>;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const connectVerb: Record<string, string | undefined> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };

function refName(ref: string | undefined): string | undefined {
  return ref?.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
}

function responseDefinition(op: Operation): string | undefined {
  for (const code of ['200', '201', '202']) {
    const name = refName(op.responses?.[code]?.schema?.$ref);
    if (name) return name;
  }
  return undefined;
}

function bodyDefinition(op: Operation): string | undefined {
  for (const p of op.parameters ?? []) if (p.in === 'body') return refName(p.schema?.$ref);
  return undefined;
}

interface ParsedPath { group: string; version: string; resource: string; namespaced: boolean; item: boolean; sub?: string; watch: boolean }

/** splits a resource path into its parts; undefined for discovery and other non-resource paths */
function parsePath(path: string): ParsedPath | undefined {
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(.+)$/.exec(path);
  if (!m) return undefined;
  const group = m[2] ?? '';
  const version = (m[1] ?? m[3])!;
  let segs = m[4]!.split('/').filter(Boolean);
  let watch = false;
  if (segs[0] === 'watch') { watch = true; segs = segs.slice(1); }
  let namespaced = false;
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2) { namespaced = true; segs = segs.slice(2); }
  const resource = segs[0];
  if (!resource || resource.startsWith('{')) return undefined;
  const item = segs[1] === '{name}';
  const sub = item && segs[2] && !segs[2].startsWith('{') ? segs[2] : undefined;
  return { group, version, resource, namespaced, item, sub, watch };
}

function collect(doc: Doc): Entry[] {
  const entries = new Map<string, Entry>();
  const keyOf = (p: ParsedPath) => `${p.group}/${p.version}/${p.resource}`;
  const paths = Object.keys(doc.paths).sort();
  // main resources first so subresources always find their parent
  for (const pass of ['main', 'sub'] as const) {
    for (const path of paths) {
      const p = parsePath(path);
      if (!p || (pass === 'main') === !!p.sub) continue;
      const item = doc.paths[path]!;
      for (const method of httpMethods) {
        const op = item[method] as Operation | undefined;
        if (!op) continue;
        const action = op['x-kubernetes-action'];
        const gvk = op['x-kubernetes-group-version-kind'];
        if (!action || !gvk) continue;
        if (pass === 'main') {
          let e = entries.get(keyOf(p));
          if (!e) {
            e = { group: p.group, version: p.version, resource: p.resource, kind: gvk.kind, namespaced: false, verbs: new Set(), definition: '', subresources: new Map() };
            entries.set(keyOf(p), e);
          }
          if (p.namespaced) e.namespaced = true;
          const verb = mainVerb(action, p.item, p.watch);
          if (verb) e.verbs.add(verb);
          if (!p.watch) {
            const def = action === 'list' ? undefined : action === 'post' ? bodyDefinition(op) ?? responseDefinition(op) : action === 'get' || action === 'put' ? responseDefinition(op) : undefined;
            if (def && !e.definition) e.definition = def;
            if (action === 'list') e.listDefinition = responseDefinition(op);
          }
        } else {
          const parent = entries.get(keyOf(p));
          if (!parent) throw new Error(`subresource ${path} has no parent resource`);
          if (p.namespaced) parent.namespaced = true;
          let s = parent.subresources.get(p.sub!);
          if (!s) {
            s = { name: p.sub!, kind: gvk.kind, group: gvk.group, version: gvk.version, verbs: new Set() };
            parent.subresources.set(p.sub!, s);
          }
          const verb = action === 'connect' ? connectVerb[method] : mainVerb(action, true, false);
          if (verb) s.verbs.add(verb);
          if (action === 'connect') s.connect = true;
          const def = responseDefinition(op) ?? bodyDefinition(op);
          if (def && !s.definition) s.definition = def;
        }
      }
    }
  }
  for (const e of entries.values()) {
    if (!e.definition) throw new Error(`no definition found for ${e.group}/${e.version}/${e.resource}`);
  }
  return [...entries.values()].sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.resource, b.resource));
}

function mainVerb(action: string, item: boolean, watch: boolean): string | undefined {
  if (watch || action === 'watch' || action === 'watchlist') return 'watch';
  switch (action) {
    case 'get': return 'get';
    case 'list': return 'list';
    case 'post': return 'create';
    case 'put': return 'update';
    case 'patch': return 'patch';
    case 'delete': return item ? 'delete' : 'deletecollection';
    case 'deletecollection': return 'deletecollection';
    default: return undefined;
  }
}

function cmp(a: string, b: string): number { return a < b ? -1 : a > b ? 1 : 0; }

/** JSON with keys sorted at every level, so output does not depend on input key order */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = stable((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

function renderResources(entries: Entry[]): string {
  const lines = entries.map(e => {
    const row: Record<string, unknown> = {
      group: e.group, version: e.version, resource: e.resource, kind: e.kind, namespaced: e.namespaced,
      verbs: [...e.verbs].sort(), definition: e.definition,
    };
    if (e.listDefinition) row.listDefinition = e.listDefinition;
    row.subresources = [...e.subresources.values()].sort((a, b) => cmp(a.name, b.name)).map(s => {
      const sub: Record<string, unknown> = { name: s.name, kind: s.kind, group: s.group, version: s.version, verbs: [...s.verbs].sort() };
      if (s.definition) sub.definition = s.definition;
      if (s.connect) sub.connect = true;
      return sub;
    });
    return `  ${JSON.stringify(row)},`;
  });
  return [
    `// Generated by scripts/gen-catalog.ts from ${sourceName}. Do not edit by hand.`,
    '',
    'export interface GeneratedSubresource {',
    '  name: string;',
    '  kind: string;',
    '  group: string;',
    '  version: string;',
    '  verbs: string[];',
    '  /** definition of the body it returns; absent when it returns plain text */',
    '  definition?: string;',
    '  /** a streaming or proxy subresource (exec, attach, portforward, proxy) */',
    '  connect?: true;',
    '}',
    '',
    'export interface GeneratedResource {',
    '  group: string;',
    '  version: string;',
    '  resource: string;',
    '  kind: string;',
    '  namespaced: boolean;',
    '  verbs: string[];',
    '  definition: string;',
    '  listDefinition?: string;',
    '  subresources: GeneratedSubresource[];',
    '}',
    '',
    'export const generatedResources: readonly GeneratedResource[] = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}

/** one definition per line: compact yet diff-friendly */
function renderDefinitions(doc: Doc): string {
  const section = (obj: Record<string, unknown>) =>
    Object.keys(obj).sort().map(k => `    ${JSON.stringify(k)}: ${JSON.stringify(stable(obj[k]))}`).join(',\n');
  return [
    '{',
    `  "//": "Generated by scripts/gen-catalog.ts from ${sourceName}. Do not edit by hand.",`,
    '  "definitions": {',
    section(doc.definitions),
    '  }',
    '}',
    '',
  ].join('\n');
}

const doc = JSON.parse(readFileSync(sourcePath, 'utf8')) as Doc;
const entries = collect(doc);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'resources.ts'), renderResources(entries));
writeFileSync(join(outDir, 'openapi-definitions.json'), renderDefinitions(doc));
console.log(`wrote ${entries.length} resources and ${Object.keys(doc.definitions).length} definitions to ${outDir}`);
