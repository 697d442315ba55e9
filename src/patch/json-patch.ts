// JSON patch (RFC 6902): add, remove, replace, move, copy, test over JSON pointers (RFC 6901).

import { deepClone, jsonEqual } from '../api/object.ts';

export class JsonPatchError extends Error {
  /** a failed `test` operation (Kubernetes answers 422) rather than a malformed patch (400) */
  testFailed: boolean;
  /** the patch is not a JSON patch document at all (400) rather than inapplicable to this object (422) */
  decodeError: boolean;
  constructor(message: string, testFailed = false, decodeError = false) {
    super(message);
    this.testFailed = testFailed;
    this.decodeError = decodeError;
  }
}

interface Operation { op: string; path: string; from?: string; value?: unknown }

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path.slice(1).split('/').map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function parentOf(doc: unknown, tokens: string[], path: string): { parent: Container; key: string } {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(t, cur.length - 1, path)];
    else if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[t];
    else cur = undefined;
    if (cur === undefined) throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  }
  if (!cur || typeof cur !== 'object') throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  return { parent: cur as Container, key: tokens[tokens.length - 1]! };
}

function arrayIndex(t: string, max: number, path: string): number {
  if (!/^(0|[1-9]\d*)$/.test(t)) throw new JsonPatchError(`invalid array index ${JSON.stringify(t)} in path "${path}"`);
  const i = Number(t);
  if (i > max) throw new JsonPatchError(`Unable to access invalid index: ${i}: invalid index referenced`);
  return i;
}

function get(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of pointer(path)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(t, cur.length - 1, path)];
    else if (cur && typeof cur === 'object' && Object.hasOwn(cur, t)) cur = (cur as Record<string, unknown>)[t];
    else throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = pointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : arrayIndex(key, parent.length, path);
    parent.splice(i, 0, value);
  } else {
    parent[key] = value;
  }
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = pointer(path);
  if (tokens.length === 0) throw new JsonPatchError('cannot remove the whole document');
  const { parent, key } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length - 1, path), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new JsonPatchError(`Unable to remove nonexistent key: ${key}: missing value`);
  return doc;
}

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new JsonPatchError(`json: cannot unmarshal ${patch === null ? 'null' : typeof patch === 'object' ? 'object' : typeof patch === 'boolean' ? 'bool' : typeof patch} into Go value of type jsonpatch.Patch`, false, true);
  let doc = deepClone(target);
  for (const raw of patch as Operation[]) {
    if (!raw || typeof raw !== 'object' || typeof raw.path !== 'string') throw new JsonPatchError('invalid JSON patch operation: missing path');
    switch (raw.op) {
      case 'add': doc = add(doc, raw.path, deepClone(raw.value)); break;
      case 'remove': doc = remove(doc, raw.path); break;
      case 'replace': if (raw.path === '') { doc = deepClone(raw.value); break; } get(doc, raw.path); doc = add(remove(doc, raw.path), raw.path, deepClone(raw.value)); break;
      case 'move': {
        if (typeof raw.from !== 'string') throw new JsonPatchError('move operation missing from');
        const v = get(doc, raw.from);
        doc = add(remove(doc, raw.from), raw.path, v);
        break;
      }
      case 'copy': {
        if (typeof raw.from !== 'string') throw new JsonPatchError('copy operation missing from');
        doc = add(doc, raw.path, deepClone(get(doc, raw.from)));
        break;
      }
      case 'test': {
        let actual: unknown;
        try { actual = get(doc, raw.path); } catch { actual = undefined; }
        if (!jsonEqual(actual, raw.value)) throw new JsonPatchError(`testing value ${raw.path} failed: test failed`, true);
        break;
      }
      default: throw new JsonPatchError(`Unexpected kind: ${String(raw.op)}`);
    }
  }
  return doc;
}
