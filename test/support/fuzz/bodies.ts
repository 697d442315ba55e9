// Request bodies in every media type the server reads: an object close to valid with a few
// fields replaced, removed or mistyped, sent as JSON, YAML, protobuf, CBOR, each kind of patch
// and each apply-patch spelling; then broken ones (truncated, duplicated keys, deep nesting,
// YAML tags, protobuf and CBOR with bytes overwritten, noise under any content type).

import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { encodeCbor } from '../../../src/codec/cbor.ts';
import { encodeProtobufObject } from '../../../src/codec/protobuf/envelope.ts';
import type { Json } from './resources.ts';

export interface Body { contentType?: string; body: Buffer }

/** what a body is made from: a valid object of the kind (or of the subresource's kind) */
export interface BodyShape { apiVersion: string; kind: string; object: (name: string) => Json }

/** values a JSON field might be given instead of the right one */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 64), fc.constant(-1),
  fc.string(), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constant('\u0000\u2028<&>'), fc.constant('x'.repeat(70_000)),
  fc.constant([]), fc.constant([null]), fc.constant({}), fc.constant({ '': null }), fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('1Gi', '-1', '1e3m', 'NaN', '2026-13-01T00:00:00Z', 'system:masters', 'kubernetes.io/x', 'a'.repeat(64), 'a..b', '$patch', 'k8s:enc:aesgcm:v1:k1:'),
  // (deeper values go as text below: building them as values would overflow the fuzzer's own stack)
  fc.integer({ min: 480, max: 520 }).map(d => JSON.parse('['.repeat(d) + ']'.repeat(d)) as unknown),
);

/** set `value` at a path chosen by `picks` inside a copy of `obj` (creating, replacing or deleting) */
function mutate(obj: Json, picks: number[], value: unknown, remove: boolean): Json {
  const root = structuredClone(obj);
  let node: Json = root;
  for (let i = 0; i < picks.length; i++) {
    const keys = Object.keys(node);
    const key = keys.length && picks[i]! % 3 !== 0 ? keys[picks[i]! % keys.length]! : ['metadata', 'spec', 'data', 'status', 'x', 'kind', 'apiVersion', 'name', 'uid', 'containers', 'finalizers', 'replicas'][picks[i]! % 12]!;
    const child = node[key];
    if (i === picks.length - 1 || typeof child !== 'object' || child === null || Array.isArray(child)) {
      if (remove) delete node[key];
      else if (Array.isArray(child) && child.length && picks[i]! % 2) child[picks[i]! % child.length] = value;
      else node[key] = value;
      return root;
    }
    node = child as Json;
  }
  return root;
}

const mutatedObject = (s: BodyShape) => fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  typed: fc.boolean(),
  mutations: fc.oneof(fc.constant([]), fc.array(fc.record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), value: oddValue, remove: fc.boolean() }), { maxLength: 3 })),
}).map(({ name, typed, mutations }) => {
  let obj: Json = s.object(name);
  if (typed) obj = { apiVersion: s.apiVersion, kind: s.kind, ...obj };
  for (const m of mutations) obj = mutate(obj, m.picks, m.value, m.remove);
  return obj;
});

const text = (contentType: string | undefined, s: string): Body => ({ contentType, body: Buffer.from(s) });

const jsonPatchOps = fc.array(fc.record({
  op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
  path: fc.constantFrom('/data/a', '/metadata/labels/x', '/spec/replicas', '/spec/containers/0/image', '/spec/containers/-', '/metadata/uid', '', '/', '/a~2b',
    '/spec/template/spec/containers/0', '/metadata/finalizers/-', '/status/conditions/0', '/spec/ephemeralContainers/-', '/metadata/resourceVersion', '/spec/tags/99'),
  from: fc.option(fc.constantFrom('/data/a', '/metadata', '/spec'), { nil: undefined }),
  value: oddValue,
}), { maxLength: 3 });

/** bytes of an encoded object with some overwritten after the first `keep` (a prefix or a tag) */
function damaged(bytes: Uint8Array, keep: number, noise: number[], at: number): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < noise.length; i++) if (out.length > keep) out[keep + (at + i) % (out.length - keep)] = noise[i]!;
  return out;
}

const encoded = (s: BodyShape, encode: (o: Json) => Uint8Array, fallback: Buffer, keep: number, contentType: string) =>
  fc.tuple(mutatedObject(s), fc.array(fc.nat({ max: 255 }), { maxLength: 8 }), fc.nat()).map(([o, noise, at]): Body => {
    let bytes: Uint8Array;
    try { bytes = encode({ apiVersion: s.apiVersion, kind: s.kind, ...o }); } catch { bytes = fallback; }
    // a real encoding with some bytes overwritten, or the prefix and noise
    return { contentType, body: noise.length > 6 ? Buffer.concat([fallback, Buffer.from(noise)]) : damaged(bytes, keep, noise, at) };
  });

export const bodyFor = (s: BodyShape): fc.Arbitrary<Body> => fc.oneof(
  { weight: 5, arbitrary: mutatedObject(s).map(o => text('application/json', JSON.stringify(o))) },
  { weight: 2, arbitrary: mutatedObject(s).map(o => text('application/yaml', toYaml(o))) },
  { weight: 1, arbitrary: mutatedObject(s).map(o => text('application/merge-patch+json', JSON.stringify(o))) },
  { weight: 1, arbitrary: mutatedObject(s).map(o => text('application/strategic-merge-patch+json', JSON.stringify(o))) },
  { weight: 2, arbitrary: fc.tuple(mutatedObject(s), fc.constantFrom('application/apply-patch+yaml', 'application/apply-patch+json', 'application/apply-patch+yaml;charset=utf-8')).map(([o, ct]) =>
    text(ct, ct.includes('yaml') && o.metadata ? toYaml({ apiVersion: s.apiVersion, kind: s.kind, ...o }) : JSON.stringify({ apiVersion: s.apiVersion, kind: s.kind, ...o }))) },
  { weight: 1, arbitrary: mutatedObject(s).map((o): Body => ({ contentType: 'application/apply-patch+cbor', body: Buffer.from(encodeCbor({ apiVersion: s.apiVersion, kind: s.kind, ...o })) })) },
  { weight: 1, arbitrary: jsonPatchOps.map(ops => text('application/json-patch+json', JSON.stringify(ops))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(v => text('application/json', JSON.stringify(v))) },
  { weight: 1, arbitrary: fc.tuple(mutatedObject(s), fc.nat(), fc.nat()).map(([o, cut, dup]) => {
    // truncated, or with a key repeated
    const t = JSON.stringify(o);
    return text('application/json', dup % 2 ? t.replace('{', '{"metadata":{"name":"dup"},') : t.slice(0, cut % (t.length + 1)));
  }) },
  { weight: 1, arbitrary: fc.constantFrom(
    'metadata:\n  name: y\ndata:\n  a: !!binary aGVsbG8=\n', 'a: .nan\n', 'a: &x [*x]\n', '---\na: 1\n---\nb: 2\n', 'a: !!set {p, q}\n',
    'metadata: !!omap [{name: o}]\n', 'a: !foo bar\n', `a: ${'['.repeat(3000)}${']'.repeat(3000)}\n`, 'a: [unclosed\n', '\t- bad\n', 'a: 1e400\n', '? [a]\n: b\n',
    'metadata: {name: a, labels: &l {x: y}, annotations: *l}\n', 'a: 0x1F\nb: 0o17\nc: +.inf\n', 'metadata:\n  name: a\n  name: b\n',
  ).chain(y => fc.constantFrom('application/yaml', 'application/apply-patch+yaml').map(ct => text(ct, y)))},
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 9_990, max: 10_010 }), fc.constantFrom('{"a":', '[')).map(([d, open]) => {
    const close = open === '[' ? ']' : '}';
    return text('application/json', `{"metadata":{"name":"deep"},"x":${open.repeat(d)}${open === '[' ? '' : '1'}${close.repeat(d)}}`);
  }) },
  { weight: 2, arbitrary: encoded(s, o => encodeProtobufObject(o), Buffer.from('k8s\0'), 4, 'application/vnd.kubernetes.protobuf') },
  // CBOR as Kubernetes writes it: the self-described tag, then the object
  { weight: 2, arbitrary: encoded(s, o => encodeCbor(o), Buffer.from([0xd9, 0xd9, 0xf7]), 3, 'application/cbor') },
  { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('application/json', 'application/yaml', 'text/plain', 'application/cbor', 'application/vnd.kubernetes.protobuf',
    'application/json;charset=latin1', '', 'garbage/;;', 'application/cbor-seq', 'application/apply-patch+cbor', 'application/json-patch+json')).map(([b, ct]) => ({ contentType: ct, body: Buffer.from(b) })) },
);
