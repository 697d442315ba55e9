import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from '../../../src/api/lru-map.ts';

test('the least recently used key goes first; a read or a write makes a key recent', () => {
  const m = new LruMap<string, number>(2);
  m.set('a', 1);
  m.set('b', 2);
  assert.equal(m.get('a'), 1); // a is now newer than b
  m.set('c', 3);
  assert.deepEqual([m.get('a'), m.get('b'), m.get('c'), m.size], [1, undefined, 3, 2]);
  m.set('a', 10); // written again: recent, not duplicated
  m.set('d', 4);
  assert.deepEqual([m.get('a'), m.get('c'), m.get('d'), m.size], [10, undefined, 4, 2]);
});
