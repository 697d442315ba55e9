// For every built-in kind with a protobuf message: an object generated from its schema with
// every field set (values drawn by fast-check) reads back from protobuf as the JSON it was, as
// Go's encoder writes that JSON.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { generatedResources } from '../../../src/schema/generated/resources.ts';
import { schemaNode, type SchemaNode } from '../../../src/schema/schema-walker.ts';
import { decodeProtobufObject, encodeProtobufObject, supportsProtobuf } from '../../../src/codec/protobuf/envelope.ts';
import { goJson } from '../../../src/codec/go-json.ts';
import { fieldMessage, hasMessage, messageInfo, type MessageInfo } from '../../../src/codec/protobuf/messages.ts';

/** the JSON fields a definition's protobuf message carries (embedded structs' fields included) */
function wireFields(defName: string): Set<string> | undefined {
  const message = defName.replace(/^io\.k8s\./, 'k8s.io.');
  if (!hasMessage(message)) return undefined;
  const names = new Set<string>();
  const add = (info: MessageInfo) => { for (const f of info.fields) if (f.inline) add(fieldMessage(f)); else names.add(f.name); };
  add(messageInfo(message));
  return names;
}

interface Scalars { text: string; int: number; flag: boolean }

/**
 * a value of `node` with every field set, down to a depth where recursive types stop (their
 * deepest fields are left out: an empty list, map or struct is no value on the wire)
 */
function fill(node: SchemaNode | undefined, s: Scalars, depth: number): unknown {
  switch (node?.kind) {
    case 'string': return node.definition?.endsWith('.Duration') ? '1m30s' : s.text;
    case 'bytes': return Buffer.from(s.text).toString('base64');
    case 'integer': case 'number': return s.int;
    case 'boolean': return s.flag;
    case 'int-or-string': return s.int;
    case 'quantity': return `${s.int}Mi`;
    case 'time': return node.definition?.endsWith('MicroTime') ? '2024-05-06T07:08:09.123456Z' : '2024-05-06T07:08:09Z';
    case 'list': { const v = depth > 0 ? fill(node.elem, s, depth - 1) : undefined; return v === undefined ? undefined : [v]; }
    case 'map': { const v = depth > 0 ? fill(node.elem, s, depth - 1) : undefined; return v === undefined ? undefined : { [s.text]: v }; }
    case 'struct': {
      if (depth <= 0) return undefined;
      const out: Record<string, unknown> = {};
      // (fields the OpenAPI document has and the message lacks, an alpha field's churn, cannot travel)
      const wire = node.definition ? wireFields(node.definition) : undefined;
      for (const [name, f] of node.fields!) {
        if (name === 'apiVersion' || name === 'kind' || (wire && !wire.has(name))) continue;
        const v = fill(f.node, s, depth - 1);
        if (v !== undefined) out[name] = v;
      }
      return Object.keys(out).length ? out : undefined;
    }
    default: return { [s.text]: s.text };
  }
}

const kinds = [...new Map(generatedResources
  .filter(r => supportsProtobuf(r.group ? `${r.group}/${r.version}` : r.version, r.kind))
  .map(r => [`${r.group}/${r.version}/${r.kind}`, r] as const)).values()];

test(`JSON → protobuf → JSON is identical for every kind with every field set (${kinds.length} kinds)`, () => {
  assert.ok(kinds.length > 80);
  const scalars = fc.record({
    // text that survives as a map key, a name and a label alike; numbers that are not zero
    text: fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/),
    int: fc.integer({ min: 1, max: 2_000_000 }),
    flag: fc.constant(true),
  });
  for (const r of kinds) {
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    const node = schemaNode(r.definition)!;
    fc.assert(fc.property(scalars, s => {
      const obj = { apiVersion, kind: r.kind, ...(fill(node, s, 7) as Record<string, unknown>) };
      const json = JSON.parse(goJson(obj));
      const back = decodeProtobufObject(encodeProtobufObject(obj)).object;
      assert.deepEqual(JSON.parse(goJson(back)), json, `${apiVersion} ${r.kind}`);
    }), { numRuns: 5, seed: 19 });
  }
});
