// Walks of objects by shape: the fields a value sets, the fields one write changed, the value
// at a path, applying a configuration over a live object, and removing a path.

import { isObject, jsonEqual } from '../api/object.ts';
import { FieldSet, type Path, type PathElement } from './field-set.ts';
import { childShape, itemKey, itemShape, setKey, type Shape } from './shape.ts';

type Obj = Record<string, unknown>;

/** every field `value` sets: leaves, list items, and empty containers as themselves */
export function fieldSetOf(value: unknown, shape: Shape): FieldSet {
  const out = new FieldSet();
  const walk = (v: unknown, sh: Shape, path: PathElement[]): void => {
    if (v === undefined) return;
    if (sh.kind === 'leaf' || v === null) { if (path.length) out.insert(path); return; }
    if (sh.kind === 'struct' || sh.kind === 'map') {
      if (!isObject(v) || Object.keys(v).length === 0) { if (path.length) out.insert(path); return; }
      for (const [k, c] of Object.entries(v)) walk(c, childShape(sh, k), [...path, `f:${k}`]);
      return;
    }
    if (!Array.isArray(v) || v.length === 0) { if (path.length) out.insert(path); return; }
    for (const item of v) {
      if (sh.kind === 'set') { out.insert([...path, setKey(item)]); continue; }
      const key = itemKey(sh, item);
      if (key === undefined) continue;
      const p = [...path, key];
      out.insert(p);
      if (isObject(item)) for (const [k, c] of Object.entries(item)) walk(c, childShape(itemShape(sh), k), [...p, `f:${k}`]);
    }
  };
  walk(value, shape, []);
  return out;
}

/**
 * The fields a write set or changed going from `before` to `after`: changed leaves, new list and
 * set items, and maps that came into being (as themselves, `.`), and what is inside new things.
 */
export function changedFields(before: unknown, after: unknown, shape: Shape): FieldSet {
  const out = new FieldSet();
  const walk = (o: unknown, n: unknown, sh: Shape, path: PathElement[]): void => {
    if (n === undefined) return;
    if (sh.kind === 'leaf' || n === null) { if (path.length && !jsonEqual(o, n)) out.insert(path); return; }
    if (sh.kind === 'struct' || sh.kind === 'map') {
      if (!isObject(n)) { if (path.length && !jsonEqual(o, n)) out.insert(path); return; }
      const old = isObject(o) ? o : undefined;
      if (path.length && (!old && (sh.kind === 'map' || Object.keys(n).length === 0))) out.insert(path);
      for (const [k, c] of Object.entries(n)) walk(old?.[k], c, childShape(sh, k), [...path, `f:${k}`]);
      return;
    }
    if (!Array.isArray(n)) { if (path.length && !jsonEqual(o, n)) out.insert(path); return; }
    const old = Array.isArray(o) ? o : undefined;
    if (n.length === 0) { if (path.length && !old) out.insert(path); return; }
    if (sh.kind === 'set') {
      for (const item of n) if (!old?.some(x => jsonEqual(x, item))) out.insert([...path, setKey(item)]);
      return;
    }
    const oldByKey = new Map<string, unknown>();
    for (const item of old ?? []) { const k = itemKey(sh, item); if (k !== undefined) oldByKey.set(k, item); }
    for (const item of n) {
      const key = itemKey(sh, item);
      if (key === undefined) continue;
      const p = [...path, key];
      const was = oldByKey.get(key);
      if (was === undefined) out.insert(p);
      if (isObject(item)) {
        const prev = isObject(was) ? was : undefined;
        for (const [k, c] of Object.entries(item)) walk(prev?.[k], c, childShape(itemShape(sh), k), [...p, `f:${k}`]);
      }
    }
  };
  walk(before, after, shape, []);
  return out;
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

/** the applied configuration over the live object: configured fields win, list items merge by key */
export function mergeConfig(live: unknown, config: unknown, shape: Shape): unknown {
  if (config === undefined) return live;
  if (shape.kind === 'leaf' || config === null) return structuredClone(config);
  if (shape.kind === 'struct' || shape.kind === 'map') {
    if (!isObject(config)) return structuredClone(config);
    const out: Obj = isObject(live) ? { ...live } : {};
    for (const [k, c] of Object.entries(config)) out[k] = mergeConfig(out[k], c, childShape(shape, k));
    return out;
  }
  if (!Array.isArray(config)) return structuredClone(config);
  const out = Array.isArray(live) ? [...live] : [];
  for (const item of config) {
    const at = shape.kind === 'set'
      ? out.findIndex(x => jsonEqual(x, item))
      : out.findIndex(x => itemKey(shape, x) === itemKey(shape, item));
    if (at < 0) out.push(structuredClone(item));
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
