// Extension API servers' Swagger 2.0 documents merged into the served one as kube-aggregator
// merges them: a path already served is kept (the local server and earlier APIServices win),
// a definition or parameter of the same name and the same content is shared, and one of the same
// name but other content is renamed `<name>_v2`, `_v3`... with the extension's references to it
// rewritten, so neither side's schema changes under its clients.

import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

export interface SwaggerParts {
  paths: Record<string, unknown>;
  definitions: Record<string, unknown>;
  parameters?: Record<string, unknown>;
}

function rewriteRefs(node: unknown, prefix: string, renames: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map(n => rewriteRefs(n, prefix, renames));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) {
      const renamed = renames.get(v.slice(prefix.length));
      out[k] = renamed ? prefix + renamed : v;
    } else out[k] = rewriteRefs(v, prefix, renames);
  }
  return out;
}

/** the names `incoming` must be given so that none replaces a different `existing` entry */
function renamesFor(existing: Record<string, unknown>, incoming: Record<string, unknown>): Map<string, string> {
  const renames = new Map<string, string>();
  for (const [name, value] of Object.entries(incoming)) {
    const current = existing[name];
    if (current === undefined || isDeepStrictEqual(current, value)) continue;
    for (let v = 2; ; v++) {
      const candidate = `${name}_v${v}`;
      const there = existing[candidate];
      if (there === undefined || isDeepStrictEqual(there, value)) { renames.set(name, candidate); break; }
    }
  }
  return renames;
}

/** `incoming` (a downloaded /openapi/v2 document) merged into `into`, which is changed in place */
export function mergeSwagger(into: SwaggerParts, incoming: Json): void {
  let doc: Json = incoming;
  const defs = (incoming.definitions ?? {}) as Record<string, unknown>;
  const params = (incoming.parameters ?? {}) as Record<string, unknown>;
  const defRenames = renamesFor(into.definitions, defs);
  const paramRenames = renamesFor(into.parameters ?? {}, params);
  if (defRenames.size) doc = rewriteRefs(doc, '#/definitions/', defRenames) as Json;
  if (paramRenames.size) doc = rewriteRefs(doc, '#/parameters/', paramRenames) as Json;
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, unknown>)) {
    if (!(path in into.paths)) into.paths[path] = item;
  }
  for (const [name, def] of Object.entries((doc.definitions ?? {}) as Record<string, unknown>)) {
    into.definitions[defRenames.get(name) ?? name] = def;
  }
  for (const [name, p] of Object.entries((doc.parameters ?? {}) as Record<string, unknown>)) {
    (into.parameters ??= {})[paramRenames.get(name) ?? name] = p;
  }
}
