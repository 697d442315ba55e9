import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countJsonKeys, countValueKeys, JsonSyntaxError, scanJson } from '../../../src/codec/json-scan.ts';

test('the quick key count matches the parsed count exactly when no key repeats', () => {
  const samples = [
    '{}', '[]', '{"a":1}', '{"a":{"b":[{"c":1},{"d":"x:y"}]}}', '{"k":"a\\":b","l":"\\\\"}', '{"a\\\\":1}',
    JSON.stringify({ metadata: { annotations: { last: JSON.stringify({ a: { b: 'c:"d"' } }) } } }),
    JSON.stringify({ a: [1, 2, { b: 'x' }], 'c:d': { '"e"': 1 } }, null, 2),
  ];
  for (const s of samples) assert.equal(countJsonKeys(s), countValueKeys(JSON.parse(s)), s);
  assert.equal(countJsonKeys('{"a":1,"a":2}'), 2);
  assert.equal(countValueKeys(JSON.parse('{"a":1,"a":2}')), 1);
  // a colon spaced away from its key makes the quick count refuse to answer
  assert.equal(countJsonKeys('{"a" : 1}'), -1);
});

test('scanJson names repeated paths through objects and arrays', () => {
  assert.deepEqual(scanJson('[{"a":1,"a":2},{"b":[{"c":1,"c":1}]}]'), ['[0].a', '[1].b[0].c']);
  assert.deepEqual(scanJson('{"a":[],"b":{},"a":{}}'), ['a']);
  assert.deepEqual(scanJson(' 42 '), []);
});

test('scanJson reports syntax errors with Go wording and the offset', () => {
  const err = (text: string) => { try { scanJson(text); } catch (e) { if (e instanceof JsonSyntaxError) return [e.message, e.offset]; throw e; } return undefined; };
  assert.deepEqual(err('{"a":"x\ny"}'), ["invalid character '\\n' in string literal", 7]);
  assert.deepEqual(err('[1,]'), ["invalid character ']' looking for beginning of value", 3]);
  assert.deepEqual(err('{"a":-}'), ["invalid character '}' in numeric literal", 6]);
  assert.deepEqual(err('[1 2]'), ["invalid character '2' after array element", 3]);
  assert.deepEqual(err('{"a":nul'), ['unexpected end of JSON input', 8]);
  assert.deepEqual(err('"abc'), ['unexpected end of JSON input', 4]);
  assert.equal(err('{"a":[1,{"b":null}],"c":-1.5e3}'), undefined);
});
