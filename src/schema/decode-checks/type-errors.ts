// Type checks that apply to every write regardless of fieldValidation: a value whose JSON type
// cannot be decoded into the Go type of its field makes Kubernetes answer 400 BadRequest, before
// any unknown-field handling. Only fields the schema knows are checked (unknown fields are the
// business of unknown-fields.ts); `required` is not checked here because decoding does not.
// The walk also does to `null` what Go's decoder does: a struct field given null is left unset
// (removed here), a null list item or map value becomes its type's zero value, so no null stands
// where code after decoding expects an object, a string or a number.

import type { FieldError } from '../../api/status.ts';
import { isObject } from '../../api/object.ts';
import { schemaNode, type SchemaNode } from '../schema-walker.ts';
import { goStructName, goTypeName, jsonKindWord, unmarshalTypeMessage } from './decode-messages.ts';
import { base64Error, quantityError, timeError } from './value-formats.ts';

interface Problem {
  error: FieldError;
  /** raised inside a type's own decoder (Quantity, IntOrString, Time): Go stops decoding there */
  aborts: boolean;
}

const maxProblems = 100;
const int32Min = -(2 ** 31), int32Max = 2 ** 31 - 1, int64Limit = 2 ** 63;

class Walk {
  problems: Problem[] = [];
  /** the Kubernetes field path: strings are keys, numbers list indices */
  path: Array<string | number> = [];
  /** struct field names only, as Go's decoder tracks them for its messages */
  goFields: string[] = [];
  goStruct: string | undefined;

  fieldPath(): string {
    let s = '';
    for (const p of this.path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
    return s;
  }

  report(v: unknown, detail: string, aborts = false): void {
    if (this.problems.length < maxProblems) {
      this.problems.push({ error: { type: 'FieldValueTypeInvalid', field: this.fieldPath(), value: v, detail }, aborts });
    }
  }

  /** a Go UnmarshalTypeError at the current position */
  mismatch(v: unknown, seen: string, goType: string, aborts = false): void {
    const fields = this.goFields.length ? this.goFields.join('.') : undefined;
    this.report(v, unmarshalTypeMessage(seen, goType, this.goStruct, fields), aborts);
  }

  check(v: unknown, node: SchemaNode): void {
    if (v === null || v === undefined) return; // null leaves any Go value at its zero value
    switch (node.kind) {
      case 'any': return;
      case 'string': if (typeof v !== 'string') this.mismatch(v, jsonKindWord(v), goTypeName(node)); return;
      case 'boolean': if (typeof v !== 'boolean') this.mismatch(v, jsonKindWord(v), goTypeName(node)); return;
      case 'number': if (typeof v !== 'number') this.mismatch(v, jsonKindWord(v), goTypeName(node)); return;
      case 'integer': return this.checkInteger(v, node);
      case 'bytes': {
        if (typeof v !== 'string') return this.mismatch(v, jsonKindWord(v), goTypeName(node));
        const err = base64Error(v);
        if (err) this.report(v, err);
        return;
      }
      case 'int-or-string':
        if (typeof v === 'string') return;
        // IntOrString decodes non-strings as int32 and Go attaches the enclosing field to that error
        if (typeof v === 'number') { if (!fitsInt32(v)) this.mismatch(v, `number ${v}`, 'int32', true); return; }
        return this.mismatch(v, jsonKindWord(v), 'int32', true);
      case 'quantity': { const err = quantityError(v); if (err) this.report(v, err, true); return; }
      case 'time': {
        if (typeof v !== 'string') return this.mismatch(v, jsonKindWord(v), 'string', true);
        const err = timeError(v);
        if (err) this.report(v, err, true);
        return;
      }
      case 'struct': return this.checkStruct(v, node);
      case 'map': return this.checkMap(v, node);
      case 'list': return this.checkList(v, node);
    }
  }

  checkInteger(v: unknown, node: SchemaNode): void {
    if (typeof v !== 'number') return this.mismatch(v, jsonKindWord(v), goTypeName(node));
    const fits = node.format === 'int32' ? fitsInt32(v) : Number.isInteger(v) && v < int64Limit && v >= -int64Limit;
    if (!fits) this.mismatch(v, `number ${v}`, goTypeName(node));
  }

  checkStruct(v: unknown, node: SchemaNode): void {
    if (!isObject(v)) return this.mismatch(v, jsonKindWord(v), goTypeName(node));
    const fields = node.fields!;
    const savedStruct = this.goStruct;
    const structName = node.definition ? goStructName(node.definition) : savedStruct;
    for (const key in v) {
      const f = fields.get(key);
      if (!f) continue;
      const child = v[key];
      if (f.node.kind === 'any') continue;
      if (child === null) { delete v[key]; continue; }
      this.goStruct = structName;
      this.path.push(key);
      this.goFields.push(key);
      this.check(child, f.node);
      this.goFields.pop();
      this.path.pop();
    }
    this.goStruct = savedStruct;
  }

  checkMap(v: unknown, node: SchemaNode): void {
    if (!isObject(v)) return this.mismatch(v, jsonKindWord(v), goTypeName(node));
    const elem = node.elem!;
    if (elem.kind === 'any') return;
    for (const key in v) {
      if (v[key] === null) { v[key] = zeroValue(elem); continue; }
      this.path.push(key);
      this.check(v[key], elem);
      this.path.pop();
    }
  }

  checkList(v: unknown, node: SchemaNode): void {
    if (!Array.isArray(v)) return this.mismatch(v, jsonKindWord(v), goTypeName(node));
    const elem = node.elem!;
    if (elem.kind === 'any') return;
    for (let i = 0; i < v.length; i++) {
      if (v[i] === null) { v[i] = zeroValue(elem); continue; }
      this.path.push(i);
      this.check(v[i], elem);
      this.path.pop();
    }
  }
}

/** what Go's decoder leaves in a list item or map value that was given null */
function zeroValue(node: SchemaNode): unknown {
  switch (node.kind) {
    case 'struct': case 'map': return {};
    case 'list': return [];
    case 'string': case 'bytes': return '';
    case 'integer': case 'number': case 'int-or-string': return 0;
    case 'boolean': return false;
    case 'quantity': return '0';
    default: return null;
  }
}

function fitsInt32(v: number): boolean {
  return Number.isInteger(v) && v >= int32Min && v <= int32Max;
}

function walk(obj: unknown, node: SchemaNode): Problem[] {
  const w = new Walk();
  w.check(obj, node);
  return w.problems;
}

/** every value under `obj` whose JSON type does not decode into its field's Go type, in document order */
export function typeErrorsForNode(obj: unknown, node: SchemaNode): FieldError[] {
  return walk(obj, node).map(p => p.error);
}

/** typeErrorsForNode for a named definition (io.k8s.api.apps.v1.Deployment); [] for unknown definitions */
export function typeErrors(obj: unknown, rootDefinition: string): FieldError[] {
  const node = schemaNode(rootDefinition);
  return node ? typeErrorsForNode(obj, node) : [];
}

/**
 * The one message Go's decoder would return (it keeps the first mismatch but stops at once on an
 * error raised by a custom decoder), e.g. `json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`; undefined when the object decodes.
 */
export function firstDecodeError(obj: unknown, rootDefinition: string): string | undefined {
  const node = schemaNode(rootDefinition);
  if (!node) return undefined;
  const problems = walk(obj, node);
  const chosen = problems.find(p => p.aborts) ?? problems[0];
  return chosen?.error.detail;
}
