// Shard selectors: the CEL forms accepted, the errors for everything else, and FNV-1a.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a64, parseShardSelector, ShardSelectorError } from '../../../src/api/selectors/shard.ts';

test('FNV-1a 64 as published (offset basis, and the test vectors "a" and "foobar")', () => {
  assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
  assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
  assert.equal(fnv1a64('foobar'), 0x85944171f73967e8n);
});

test('ranges joined by ||, on uid or namespace; membership by the hash', () => {
  const all = parseShardSelector("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')");
  assert.equal(all.field, 'uid');
  assert.equal(all.ranges.length, 2);
  const obj = (uid: string, namespace = 'ns') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { uid, namespace } });
  assert.ok(all.matches(obj('anything')));
  const ns = parseShardSelector("shardRange(object.metadata.namespace, '0xaf63dc4c8601ec8c', '0xaf63dc4c8601ec8d')");
  assert.ok(ns.matches(obj('x', 'a')), 'the hash of "a" is in its own one-wide range');
  assert.ok(!ns.matches(obj('x', 'b')));
});

test('anything else is refused, saying what is wrong', () => {
  const cases: Array<[string, RegExp]> = [
    ['shardRange((', /^invalid shard selector: /],
    ["shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')", /unsupported field path object\.metadata\.name/],
    ["shardRange(object.metadata.uid, '0x0', '0x8000000000000000')", /start "0x0" must be 0x followed by 16 lowercase hex digits/],
    ["shardRange(object.metadata.uid, '0x0000000000000000', '0x20000000000000000')", /end "0x20000000000000000"/],
    ["shardRange(object.metadata.uid, '0x00000000000000AA', '0x8000000000000000')", /lowercase/],
    ["shardRange(object.metadata.uid, '0x8000000000000000', '0x0000000000000000')", /must be less than end/],
    ["shardRange(object.metadata.uid, '0x0000000000000000')", /takes 3 arguments, got 2/],
    ["shardRange(object.metadata.uid, 1, '0x8000000000000000')", /must be a string literal/],
    ["shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') && true", /only shardRange/],
    ["shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')", /same field path/],
  ];
  for (const [text, message] of cases) assert.throws(() => parseShardSelector(text), (e: unknown) => e instanceof ShardSelectorError && message.test(e.message), text);
});
