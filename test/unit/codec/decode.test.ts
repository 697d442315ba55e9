import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBody } from '../../../src/codec/decode.ts';
import { encodeBody } from '../../../src/codec/encode.ts';
import { StatusError } from '../../../src/api/status.ts';

const b = (s: string) => Buffer.from(s);

test('JSON and YAML bodies decode; malformed ones are 400', () => {
  assert.deepEqual(decodeBody(b('{"a":1}'), 'json').object, { a: 1 });
  assert.deepEqual(decodeBody(b('a: 1\nb: [x]\n'), 'yaml').object, { a: 1, b: ['x'] });
  for (const [body, kind] of [['{"a":', 'json'], ['a: [1', 'yaml'], ['a: 1\n---\nb: 2\n', 'yaml'], ['', 'yaml']] as const) {
    assert.throws(() => decodeBody(b(body), kind), (e: unknown) => e instanceof StatusError && e.code === 400, `${kind}: ${body}`);
  }
});

test('encoding: compact JSON, pretty JSON, YAML', () => {
  assert.equal(encodeBody({ a: 1 }, 'application/json'), '{"a":1}');
  assert.equal(encodeBody({ a: 1 }, 'application/json', { pretty: true }), '{\n  "a": 1\n}\n');
  assert.equal(encodeBody({ a: { b: 'c' } }, 'application/yaml'), 'a:\n  b: c\n');
});
