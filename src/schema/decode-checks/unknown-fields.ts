// Unknown-field detection and pruning (fieldValidation=Strict reports, Warn and Ignore drop).
// Paths use the strict decoder's format: struct fields and map keys joined with dots, list items
// as [i], no leading dot: `spec.containers[0].imagePullPolisy`, `spec.template.metadata.spec`.

import { isObject } from '../../api/object.ts';
import { schemaNode, type SchemaNode } from '../schema-walker.ts';

// TypeMeta is inlined into every top-level kind; these are never unknown at the root
const rootTypeMeta = new Set(['apiVersion', 'kind']);

/** whether values of this node can hold a struct somewhere below (labels, data, scalars cannot) */
function mayNest(node: SchemaNode): boolean {
  return node.kind === 'struct' || ((node.kind === 'map' || node.kind === 'list') && mayNest(node.elem!));
}

class UnknownWalk {
  found: string[] = [];
  path: Array<string | number> = [];
  prune: boolean;
  constructor(prune: boolean) { this.prune = prune; }

  pathWith(key: string): string {
    let s = '';
    for (const p of this.path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
    return s ? `${s}.${key}` : key;
  }

  visit(v: unknown, node: SchemaNode, root: boolean): void {
    switch (node.kind) {
      case 'struct': {
        if (!isObject(v)) return;
        const fields = node.fields!;
        for (const key of Object.keys(v)) {
          const f = fields.get(key);
          if (!f) {
            if (node.preserveUnknown || (root && rootTypeMeta.has(key))) continue;
            this.found.push(this.pathWith(key));
            if (this.prune) delete v[key];
            continue;
          }
          if (!mayNest(f.node)) continue;
          const child = v[key];
          if (child === null || typeof child !== 'object') continue;
          this.path.push(key);
          this.visit(child, f.node, false);
          this.path.pop();
        }
        return;
      }
      case 'map': {
        if (!isObject(v) || !mayNest(node.elem!)) return;
        for (const key of Object.keys(v)) {
          this.path.push(key);
          this.visit(v[key], node.elem!, false);
          this.path.pop();
        }
        return;
      }
      case 'list': {
        if (!Array.isArray(v) || !mayNest(node.elem!)) return;
        for (let i = 0; i < v.length; i++) {
          this.path.push(i);
          this.visit(v[i], node.elem!, false);
          this.path.pop();
        }
        return;
      }
      default: return;
    }
  }
}

/** paths of fields the schema does not know, in document order; `obj` is not changed */
export function findUnknownFieldsForNode(obj: unknown, node: SchemaNode): string[] {
  const w = new UnknownWalk(false);
  w.visit(obj, node, true);
  return w.found;
}

/** removes unknown fields from `obj` in place and returns their paths (for Warning headers) */
export function pruneUnknownFieldsForNode(obj: unknown, node: SchemaNode): string[] {
  const w = new UnknownWalk(true);
  w.visit(obj, node, true);
  return w.found;
}

/** findUnknownFieldsForNode for a named definition; [] when the definition is unknown */
export function findUnknownFields(obj: unknown, rootDefinition: string): string[] {
  const node = schemaNode(rootDefinition);
  return node ? findUnknownFieldsForNode(obj, node) : [];
}

/** pruneUnknownFieldsForNode for a named definition; removes nothing when the definition is unknown */
export function pruneUnknownFields(obj: unknown, rootDefinition: string): string[] {
  const node = schemaNode(rootDefinition);
  return node ? pruneUnknownFieldsForNode(obj, node) : [];
}
