import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Interned } from '../../../src/client/interned.ts';

test('equal values share one frozen instance; different ones do not', () => {
  const t = new Interned<{ a: number; b?: { c: string[] } }>();
  const x = t.of({ a: 1, b: { c: ['p'] } });
  const y = t.of({ a: 1, b: { c: ['p'] } });
  const z = t.of({ a: 2 });
  assert.equal(x, y);
  assert.notEqual(x, z);
  assert.equal(t.size, 2);
  assert.ok(Object.isFrozen(x) && Object.isFrozen(x.b) && Object.isFrozen(x.b!.c));
});
