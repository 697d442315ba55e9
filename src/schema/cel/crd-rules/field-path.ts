// A rule's `fieldPath` (`.spec.replicas`, `.labels['app.kubernetes.io/name']`): checked against the
// schema under the rule, and normalized to the field path errors are reported at, as
// apiextensions-apiserver's ValidFieldPath does (properties are children, map keys are keys).

import { mapValues, type RuleSchema } from './schema.ts';

/** the path relative to the rule's node as Kubernetes prints it, or an Error saying why not */
export function normalizeFieldPath(jsonPath: string, schema: RuleSchema): string | Error {
  const found = resolveFieldPath(jsonPath, schema);
  return found instanceof Error ? found : found.path;
}

/** the same, with the schema the path ends at (a CRD's selectableFields must end at a scalar) */
export function resolveFieldPath(jsonPath: string, schema: RuleSchema): { path: string; schema: RuleSchema | undefined } | Error {
  let out = '';
  let node: RuleSchema | undefined = schema;
  let i = 0;
  const step = (name: string): Error | undefined => {
    if (!node) return new Error('does not refer to a valid field');
    if (node.properties) {
      if (!(name in node.properties)) return new Error('does not refer to a valid field');
      out = out ? `${out}.${name}` : name;
      node = node.properties[name];
    } else if (mapValues(node)) {
      out = `${out}[${name}]`;
      node = mapValues(node);
    } else return new Error('does not refer to a valid field');
    return undefined;
  };
  if (jsonPath === '') return new Error('unexpected end of JSON path');
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    if (c === '.') {
      const m = /^[^.[\]]+/.exec(jsonPath.slice(i + 1));
      if (!m) return new Error('unexpected end of JSON path');
      const err = step(m[0]);
      if (err) return err;
      i += 1 + m[0].length;
    } else if (c === '[') {
      const m = /^\['((?:[^'\\]|\\.)*)'\]/.exec(jsonPath.slice(i));
      if (!m) return new Error(`expected [ or . but got: ${jsonPath.slice(i)}`);
      const err = step(m[1]!.replace(/\\(.)/g, '$1'));
      if (err) return err;
      i += m[0].length;
    } else return new Error(`expected [ or . but got: ${c}`);
  }
  return { path: out, schema: node };
}
