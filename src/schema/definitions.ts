// The OpenAPI v2 definitions of every built-in type (generated/openapi-definitions.json, made by
// scripts/gen-catalog.ts). Loaded on first use: most code paths never need the 300 KB table.

import { createRequire } from 'node:module';

export type SchemaObject = Record<string, unknown>;

interface DefinitionsFile {
  definitions: Record<string, SchemaObject>;
}

let loaded: DefinitionsFile | undefined;
let kindIndex: Map<string, string> | undefined;

function file(): DefinitionsFile {
  // require() keeps the parse synchronous and out of the type checker's way
  loaded ??= createRequire(import.meta.url)('./generated/openapi-definitions.json') as DefinitionsFile;
  return loaded;
}

let order: Record<string, string[]> | undefined;

/**
 * The JSON fields of a definition in Go struct order (generated/json-field-order.json, made by
 * scripts/gen-proto-table.ts); undefined for types without a protobuf message
 */
export function goFieldOrder(name: string): readonly string[] | undefined {
  order ??= createRequire(import.meta.url)('./generated/json-field-order.json') as Record<string, string[]>;
  return order[name];
}

let zeros: Record<string, Record<string, string>> | undefined;

/**
 * The fields of a definition Go's encoder writes although they are unset, each with the JSON it
 * writes (generated/json-zero-fields.json, from the Go structs' json tags); undefined for a
 * definition the Go sources were not read for
 */
export function goZeroFields(name: string): Readonly<Record<string, string>> | undefined {
  zeros ??= createRequire(import.meta.url)('./generated/json-zero-fields.json') as Record<string, Record<string, string>>;
  return zeros[name];
}

/** every definition by name (io.k8s.api.core.v1.Pod, ...); treat as read-only */
export function allDefinitions(): Readonly<Record<string, SchemaObject>> {
  return file().definitions;
}

export function definition(name: string): SchemaObject | undefined {
  return file().definitions[name];
}

/** the definition that carries x-kubernetes-group-version-kind for group/version/kind */
export function definitionForKind(group: string, version: string, kind: string): string | undefined {
  if (!kindIndex) {
    kindIndex = new Map();
    for (const [name, def] of Object.entries(file().definitions)) {
      const gvks = def['x-kubernetes-group-version-kind'];
      if (!Array.isArray(gvks)) continue;
      for (const g of gvks as Array<{ group: string; version: string; kind: string }>) {
        const key = `${g.group}/${g.version}/${g.kind}`;
        if (!kindIndex.has(key)) kindIndex.set(key, name);
      }
    }
  }
  return kindIndex.get(`${group}/${version}/${kind}`);
}

/** names of the definitions `roots` refer to, directly or through other definitions */
export function referencedDefinitions(roots: Iterable<string>): Set<string> {
  const defs = file().definitions;
  const seen = new Set<string>();
  const stack = [...roots];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { for (const n of node) visit(n); return; }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) stack.push(v.slice('#/definitions/'.length));
      else visit(v);
    }
  };
  while (stack.length) {
    const name = stack.pop()!;
    if (seen.has(name) || !defs[name]) continue;
    seen.add(name);
    visit(defs[name]);
  }
  return seen;
}
