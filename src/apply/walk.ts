// Walks of objects by shape: the fields a value sets, the fields one write changed, the value
// at a path, applying a configuration over a live object, and removing a path.

import { deepClone, isObject, jsonEqual } from '../api/object.ts';
import { FieldSet, type Path, type PathElement } from './field-set.ts';
import { childShape, itemKey, itemShape, setKey, type Shape } from './shape.ts';

type Obj = Record<string, unknown>;

// The walks below build the result tree as they go: `node` is the set node of the current path;
// a child node is made before descending and dropped again if nothing was put in it.

function descend(node: FieldSet, pe: PathElement, fill: (child: FieldSet) => void): void {
  const had = node.children.get(pe);
  const child = had ?? new FieldSet();
  fill(child);
  if (!had && (child.member || child.children.size)) node.children.set(pe, child);
}

/** every field `value` sets: leaves, list items, and empty containers as themselves */
export function fieldSetOf(value: unknown, shape: Shape): FieldSet {
  const root = new FieldSet();
  const walk = (v: unknown, sh: Shape, node: FieldSet, top: boolean): void => {
    if (v === undefined) return;
    if (sh.kind === 'leaf' || v === null) { if (!top) node.member = true; return; }
    if (sh.kind === 'struct' || sh.kind === 'map') {
      if (!isObject(v)) { if (!top) node.member = true; return; }
      let any = false;
      for (const k in v) { any = true; descend(node, `f:${k}`, c => walk(v[k], childShape(sh, k), c, false)); }
      if (!any && !top) node.member = true;
      return;
    }
    if (!Array.isArray(v) || v.length === 0) { if (!top) node.member = true; return; }
    for (const item of v) {
      if (sh.kind === 'set') { node.child(setKey(item)).member = true; continue; }
      const key = itemKey(sh, item);
      if (key === undefined) continue;
      const itemNode = node.child(key);
      itemNode.member = true;
      if (isObject(item)) {
        const ish = itemShape(sh);
        for (const k in item) descend(itemNode, `f:${k}`, c => walk(item[k], childShape(ish, k), c, false));
      }
    }
  };
  walk(value, shape, root, true);
  return root;
}

/**
 * The fields a write set or changed going from `before` to `after`: changed leaves, new list and
 * set items, and maps that came into being (as themselves, `.`), and what is inside new things.
 */
export function changedFields(before: unknown, after: unknown, shape: Shape): FieldSet {
  const root = new FieldSet();
  const walk = (o: unknown, n: unknown, sh: Shape, node: FieldSet, top: boolean): void => {
    if (n === undefined || o === n) return;
    if (sh.kind === 'leaf' || n === null) { if (!top && !jsonEqual(o, n)) node.member = true; return; }
    if (sh.kind === 'struct' || sh.kind === 'map') {
      if (!isObject(n)) { if (!top && !jsonEqual(o, n)) node.member = true; return; }
      const old = isObject(o) ? o : undefined;
      let any = false;
      for (const k in n) { any = true; descend(node, `f:${k}`, c => walk(old?.[k], n[k], childShape(sh, k), c, false)); }
      if (!top && !old && (sh.kind === 'map' || !any)) node.member = true;
      return;
    }
    if (!Array.isArray(n)) { if (!top && !jsonEqual(o, n)) node.member = true; return; }
    const old = Array.isArray(o) ? o : undefined;
    if (n.length === 0) { if (!top && !old) node.member = true; return; }
    if (sh.kind === 'set') {
      for (const item of n) if (!old?.some(x => jsonEqual(x, item))) node.child(setKey(item)).member = true;
      return;
    }
    const oldByKey = new Map<string, unknown>();
    for (const item of old ?? []) { const k = itemKey(sh, item); if (k !== undefined) oldByKey.set(k, item); }
    const ish = itemShape(sh);
    for (const item of n) {
      const key = itemKey(sh, item);
      if (key === undefined) continue;
      const was = oldByKey.get(key);
      descend(node, key, itemNode => {
        if (was === undefined) itemNode.member = true;
        if (!isObject(item) || was === item) return;
        const prev = isObject(was) ? was : undefined;
        for (const k in item) descend(itemNode, `f:${k}`, c => walk(prev?.[k], item[k], childShape(ish, k), c, false));
      });
    }
  };
  walk(before, after, shape, root, true);
  return root;
}

interface Located { value: unknown; shape: Shape }

/** the value at `path`, or undefined when the path is not in the object */
export function locate(obj: unknown, path: Path, shape: Shape): Located | undefined {
  let v = obj;
  let sh = shape;
  for (const pe of path) {
    if (pe.startsWith('f:')) {
      if (!isObject(v)) return undefined;
      const k = pe.slice(2);
      if (!(k in v)) return undefined;
      v = v[k];
      sh = childShape(sh, k);
    } else if (pe.startsWith('k:') && sh.kind === 'list-map') {
      if (!Array.isArray(v)) return undefined;
      const listShape = sh;
      v = v.find(item => itemKey(listShape, item) === pe);
      if (v === undefined) return undefined;
      sh = itemShape(sh);
    } else if (pe.startsWith('v:')) {
      if (!Array.isArray(v)) return undefined;
      const want = pe;
      const found = v.find(item => setKey(item) === want);
      if (found === undefined) return undefined;
      v = found;
      sh = { kind: 'leaf' };
    } else {
      return undefined;
    }
  }
  return { value: v, shape: sh };
}

/** `set` without the paths that are not in `obj` */
export function existingOnly(set: FieldSet, obj: unknown, shape: Shape): FieldSet {
  const out = new FieldSet();
  out.member = set.member;
  let items: Map<string, unknown> | undefined;
  for (const [pe, child] of set.children) {
    let next: unknown;
    let nextShape: Shape;
    if (pe.startsWith('f:')) {
      const k = pe.slice(2);
      if (!isObject(obj) || !(k in obj)) continue;
      next = obj[k];
      nextShape = childShape(shape, k);
    } else if (pe.startsWith('k:') && shape.kind === 'list-map' && Array.isArray(obj)) {
      if (!items) {
        items = new Map();
        for (const item of obj) { const key = itemKey(shape, item); if (key !== undefined) items.set(key, item); }
      }
      if (!items.has(pe)) continue;
      next = items.get(pe);
      nextShape = itemShape(shape);
    } else if (pe.startsWith('v:') && Array.isArray(obj)) {
      if (!obj.some(x => setKey(x) === pe)) continue;
      next = undefined;
      nextShape = { kind: 'leaf' };
    } else {
      continue;
    }
    const kept = existingOnly(child, next, nextShape);
    if (!kept.empty) out.children.set(pe, kept);
  }
  return out;
}

/** the applied configuration over the live object: configured fields win, list items merge by key */
export function mergeConfig(live: unknown, config: unknown, shape: Shape): unknown {
  if (config === undefined) return live;
  if (shape.kind === 'leaf' || config === null) return deepClone(config);
  if (shape.kind === 'struct' || shape.kind === 'map') {
    if (!isObject(config)) return deepClone(config);
    const out: Obj = isObject(live) ? { ...live } : {};
    for (const [k, c] of Object.entries(config)) out[k] = mergeConfig(out[k], c, childShape(shape, k));
    return out;
  }
  if (!Array.isArray(config)) return deepClone(config);
  const out = Array.isArray(live) ? [...live] : [];
  for (const item of config) {
    const at = shape.kind === 'set'
      ? out.findIndex(x => jsonEqual(x, item))
      : out.findIndex(x => itemKey(shape, x) === itemKey(shape, item));
    if (at < 0) out.push(deepClone(item));
    else if (shape.kind === 'list-map') out[at] = mergeConfig(out[at], item, itemShape(shape));
  }
  return out;
}

/** removes the field, item or set value at `path` (in place) */
export function removePath(obj: unknown, path: Path, shape: Shape): void {
  if (path.length === 0) return;
  const parent = locate(obj, path.slice(0, -1), shape);
  if (!parent) return;
  const last = path[path.length - 1]!;
  const v = parent.value;
  if (last.startsWith('f:') && isObject(v)) delete v[last.slice(2)];
  else if (Array.isArray(v)) {
    const sh = parent.shape;
    const at = last.startsWith('v:') ? v.findIndex(x => setKey(x) === last) : sh.kind === 'list-map' ? v.findIndex(x => itemKey(sh, x) === last) : -1;
    if (at >= 0) v.splice(at, 1);
  }
}
