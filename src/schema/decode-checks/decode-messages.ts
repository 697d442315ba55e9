// The wording of Kubernetes' decode failures. The API server decodes request bodies with Go's
// encoding/json (case-sensitive fork), so a value of the wrong JSON type is reported in Go terms:
// the innermost Go struct, the dotted path of struct fields (no list indices, no map keys) and
// the Go type of the target. Clients and users grep these strings, so the shapes are kept exact:
//   Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string
//   into Go struct field DeploymentSpec.spec.replicas of type int32
//   Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"

import type { SchemaNode } from '../schema-walker.ts';

/** the JSON kind of a value as Go's decoder names it in "cannot unmarshal <kind>" */
export function jsonKindWord(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** "v1.PodSpec" for io.k8s.api.core.v1.PodSpec: the Go package name and type name */
export function goQualifiedName(definitionName: string): string {
  const parts = definitionName.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : definitionName;
}

/** "PodSpec": how Go names a struct in "Go struct field PodSpec.spec.containers" */
export function goStructName(definitionName: string): string {
  return definitionName.slice(definitionName.lastIndexOf('.') + 1);
}

/** the Go type the decoder was filling, as reflect prints it: int32, []v1.Container, map[string]string */
export function goTypeName(node: SchemaNode): string {
  if (node.definition) return goQualifiedName(node.definition);
  switch (node.kind) {
    case 'list': return `[]${goTypeName(node.elem!)}`;
    case 'map': return `map[string]${goTypeName(node.elem!)}`;
    case 'string': return 'string';
    case 'bytes': return '[]uint8';
    case 'integer': return node.format === 'int32' ? 'int32' : 'int64';
    case 'number': return node.format === 'float' ? 'float32' : 'float64';
    case 'boolean': return 'bool';
    case 'int-or-string': return 'intstr.IntOrString';
    case 'quantity': return 'resource.Quantity';
    case 'time': return 'v1.Time';
    case 'struct': return 'struct {}';
    case 'any': return 'interface {}';
  }
}

/**
 * Go's UnmarshalTypeError text. `value` is what the decoder saw: 'string', 'bool', 'object',
 * 'array', 'number' (into a string) or 'number 1.5' (a number that does not fit the integer).
 * Without a struct context (the top-level value, or inside a custom decoder) the message says
 * "Go value of type" instead of naming the struct field.
 */
export function unmarshalTypeMessage(value: string, goType: string, struct?: string, fieldPath?: string): string {
  if (struct || fieldPath) return `json: cannot unmarshal ${value} into Go struct field ${struct ?? ''}.${fieldPath ?? ''} of type ${goType}`;
  return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
}

/** `Deployment in version "v1" cannot be handled as a Deployment: <detail>` — the 400 for an undecodable body */
export function decodeErrorMessage(kind: string, version: string, detail: string): string {
  return `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${detail}`;
}

/** `unknown field "spec.foo"` — one Warning header per field at fieldValidation=Warn */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/** `duplicate field "metadata.name"` — for the codec's duplicate-key detection */
export function duplicateFieldWarning(path: string): string {
  return `duplicate field ${JSON.stringify(path)}`;
}

/** `strict decoding error: unknown field "a", unknown field "b"` — the detail at fieldValidation=Strict */
export function strictDecodingMessage(problems: string[]): string {
  return `strict decoding error: ${problems.join(', ')}`;
}
