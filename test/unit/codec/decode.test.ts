import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBody } from '../../../src/codec/decode.ts';
import { encodeBody } from '../../../src/codec/encode.ts';
import { StatusError } from '../../../src/api/status.ts';

const b = (s: string) => Buffer.from(s);
const badRequest = (message: string | RegExp) => (e: unknown) =>
  e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest' && (typeof message === 'string' ? e.message === message : message.test(e.message));

test('JSON and YAML bodies decode to the same value', () => {
  const json = decodeBody(b('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":"1"}}'), 'json');
  const yaml = decodeBody(b('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: "1"\n'), 'yaml');
  assert.deepEqual(json, { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } }, duplicates: [] });
  assert.deepEqual(yaml, json);
  assert.deepEqual(decodeBody('{"a":1}', 'json').object, { a: 1 });
  assert.deepEqual(decodeBody(b('{"a": 1, "b": [true, null]}'), 'yaml').object, { a: 1, b: [true, null] });
});

test('malformed JSON is a 400 worded as Go words it', () => {
  const pre = "couldn't get version/kind; json parse error: ";
  assert.throws(() => decodeBody(b('{"a":'), 'json'), badRequest(`${pre}unexpected end of JSON input`));
  assert.throws(() => decodeBody(b(''), 'json'), badRequest(`${pre}unexpected end of JSON input`));
  assert.throws(() => decodeBody(b('{"a":1,}'), 'json'), badRequest(`${pre}invalid character '}' looking for beginning of object key string`));
  assert.throws(() => decodeBody(b('{"a" 1}'), 'json'), badRequest(`${pre}invalid character '1' after object key`));
  assert.throws(() => decodeBody(b('{"a":1 "b":2}'), 'json'), badRequest(`${pre}invalid character '"' after object key:value pair`));
  assert.throws(() => decodeBody(b('{"a":tru}'), 'json'), badRequest(`${pre}invalid character '}' in literal true (expecting 'e')`));
  assert.throws(() => decodeBody(b('{"a":1}x'), 'json'), badRequest(`${pre}invalid character 'x' after top-level value`));
  assert.throws(() => decodeBody(b("{'a':1}"), 'json'), badRequest(`${pre}invalid character '\\'' looking for beginning of object key string`));
});

test('a body that is not an object is a 400 (unless allowed, as for JSON patches)', () => {
  const msg = /^couldn't get version\/kind; json parse error: json: cannot unmarshal (array|string|number|bool|null) into Go value of type struct/;
  for (const body of ['[1,2]', '"x"', '3', 'true', 'null']) assert.throws(() => decodeBody(b(body), 'json'), badRequest(msg), body);
  assert.throws(() => decodeBody(b('- 1\n- 2\n'), 'yaml'), badRequest(/cannot unmarshal array/));
  assert.throws(() => decodeBody(b('just text\n'), 'yaml'), badRequest(/cannot unmarshal string/));
  assert.deepEqual(decodeBody(b('[{"op":"remove","path":"/a"}]'), 'json', { requireObject: false }).object, [{ op: 'remove', path: '/a' }]);
});

test('malformed YAML, several documents, or none, are 400', () => {
  assert.throws(() => decodeBody(b('a: [1\n'), 'yaml'), badRequest(/^error converting YAML to JSON: yaml: line 2: /));
  assert.throws(() => decodeBody(b('a: b: c\n'), 'yaml'), badRequest(/^error converting YAML to JSON: yaml: line 1: /));
  assert.throws(() => decodeBody(b('a: *nowhere\n'), 'yaml'), badRequest(/^error converting YAML to JSON: yaml: /));
  assert.throws(() => decodeBody(b('a: 1\n---\nb: 2\n'), 'yaml'), badRequest(/more than one YAML document/));
  assert.throws(() => decodeBody(b(''), 'yaml'), badRequest(/unexpected end of JSON input/));
  assert.throws(() => decodeBody(b('# nothing\n'), 'yaml'), badRequest(/unexpected end of JSON input/));
  // a leading or trailing separator is not a second document
  assert.deepEqual(decodeBody(b('---\na: 1\n---\n'), 'yaml').object, { a: 1 });
});

test('YAML scalars read as Go clients read them: 1.1 booleans and octal, timestamps as strings', () => {
  const { object } = decodeBody(b('a: yes\nb: off\nc: 0777\nd: 2024-01-01\ne: 2024-01-01T10:00:00Z\nf: "yes"\ng: 1:20\n'), 'yaml');
  assert.deepEqual(object, { a: true, b: false, c: 511, d: '2024-01-01', e: '2024-01-01T10:00:00Z', f: 'yes', g: '1:20' });
});

test('duplicate fields are found in JSON, with their paths; the last value wins', () => {
  const body = '{"metadata":{"name":"a","labels":{"x":"1"},"name":"b"},"spec":{"containers":[{"name":"c","image":"i","image":"j"}]},"kind":"Pod","kind":"Pod"}';
  const d = decodeBody(b(body), 'json');
  assert.deepEqual(d.duplicates, ['metadata.name', 'spec.containers[0].image', 'kind']);
  assert.equal((d.object as any).metadata.name, 'b');
  assert.equal((d.object as any).spec.containers[0].image, 'j');
  // a key repeated three times is reported once; equal keys in different objects are not repeats
  assert.deepEqual(decodeBody(b('{"a":1,"a":2,"a":3}'), 'json').duplicates, ['a']);
  assert.deepEqual(decodeBody(b('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}'), 'json').duplicates, []);
  // escaped keys are compared by value; spacing does not hide a repeat
  assert.deepEqual(decodeBody(b('{"a\\u0062": 1, "ab" : 2}'), 'json').duplicates, ['ab']);
  assert.deepEqual(decodeBody(b('{\n  "a" : 1,\n  "b": {"c":"x\\":y", "c" :2}\n}'), 'json').duplicates, ['b.c']);
  assert.deepEqual(decodeBody(b('{"a":1,"a":2}'), 'json', { duplicates: false }).duplicates, []);
});

test('duplicate keys are found in YAML too', () => {
  const d = decodeBody(b('metadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: c\n    name: d\n'), 'yaml');
  assert.deepEqual(d.duplicates, ['metadata.name', 'spec.containers[0].name']);
  assert.equal((d.object as any).metadata.name, 'b');
});

test('encoding: compact JSON, pretty JSON indented two spaces, YAML as Kubernetes writes it', () => {
  const obj = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', labels: { on: 'yes' } }, spec: { containers: [{ name: 'c', args: ['1'] }], volumes: [] } };
  assert.equal(encodeBody({ a: 1, b: [1, 2] }, 'application/json'), '{"a":1,"b":[1,2]}\n');
  assert.equal(encodeBody({ a: 1, b: { c: [1] } }, 'application/json', { pretty: true }), '{\n  "a": 1,\n  "b": {\n    "c": [\n      1\n    ]\n  }\n}');
  assert.equal(encodeBody(obj, 'application/yaml'), [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  creationTimestamp: "2026-01-01T00:00:00Z"',
    '  labels:',
    '    "on": "yes"',
    '  name: p',
    'spec:',
    '  containers:',
    '  - args:',
    '    - "1"',
    '    name: c',
    '    resources: {}',
    '  volumes: []',
    'status: {}',
    '',
  ].join('\n'));
  // what is written reads back the same, with the struct values Go writes although empty
  assert.deepEqual(decodeBody(encodeBody(obj, 'application/yaml'), 'yaml').object, { ...obj, spec: { ...obj.spec, containers: [{ ...obj.spec.containers[0], resources: {} }] }, status: {} });
});

/** `levels` objects, one inside the other */
const nested = (levels: number, leaf = '1') => '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);

test('JSON nested past 10,000 levels is a 400 with Go\'s message, found without recursion', () => {
  // the outer object is the first level: 10,001 levels in all
  assert.throws(() => decodeBody(b(`{"x":${nested(10_000)}}`), 'json'), badRequest("couldn't get version/kind; json parse error: invalid character '{' exceeded max depth"));
  assert.throws(() => decodeBody(b(`{"x":${nested(200_000)}}`), 'json'), badRequest(/exceeded max depth$/));
  // arrays count as levels too, and brackets inside strings do not
  assert.throws(() => decodeBody(b(`{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`), 'json'), badRequest(/invalid character '\[' exceeded max depth/));
  const quoted = `{"x":"${'{['.repeat(20_000)}\\"${'{'.repeat(10)}"}`;
  assert.equal((decodeBody(b(quoted), 'json').object as { x: string }).x.length, 40_011);
});

test('bodies nested deeper than the server walks (500 levels) are a 400; 500 levels decode', () => {
  const tooDeep = badRequest('the request body nests objects and arrays more than 500 levels deep');
  assert.throws(() => decodeBody(b(`{"x":${nested(9_999)}}`), 'json'), tooDeep);
  assert.throws(() => decodeBody(b(`{"x":${nested(500)}}`), 'json'), tooDeep);
  assert.equal(typeof decodeBody(b(`{"x":${nested(499)}}`), 'json').object, 'object');
  assert.equal(typeof decodeBody(b(`{"x":${nested(499, '"' + '{'.repeat(2000) + '"')}}`), 'json').object, 'object');
  assert.throws(() => decodeBody(b(`x: ${'['.repeat(100_000)}${']'.repeat(100_000)}`), 'yaml'), tooDeep);
  assert.throws(() => decodeBody(b(`x: ${'['.repeat(600)}${']'.repeat(600)}`), 'yaml'), tooDeep);
});

test('YAML tags become what JSON can hold: binary as its text, sets as maps; NaN and infinities are a 400', () => {
  const cm = decodeBody(b('kind: ConfigMap\ndata:\n  a: !!binary aGVsbG8=\nmetadata:\n  labels: !!set {p, q}\n'), 'yaml').object as any;
  assert.equal(cm.data.a, 'hello');
  assert.deepEqual(cm.metadata.labels, { p: null, q: null });
  assert.throws(() => decodeBody(b('a: .nan\n'), 'yaml'), badRequest('error converting YAML to JSON: json: unsupported value: NaN'));
  assert.throws(() => decodeBody(b('a: [-.inf]\n'), 'yaml'), badRequest('error converting YAML to JSON: json: unsupported value: -Inf'));
  assert.equal(JSON.stringify(decodeBody(b('a: !custom x\nb: !!omap [{k: 1}]\n'), 'yaml').object), '{"a":"x","b":{"k":1}}');
});
