import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, JsonPatchError } from '../../../src/patch/json-patch.ts';
import { applyMergePatch } from '../../../src/patch/merge-patch.ts';

test('JSON patch operations', () => {
  const doc = { a: { b: [1, 2] }, c: 'x' };
  const out = applyJsonPatch(doc, [
    { op: 'add', path: '/a/b/1', value: 9 },
    { op: 'add', path: '/a/b/-', value: 3 },
    { op: 'replace', path: '/c', value: 'y' },
    { op: 'copy', from: '/c', path: '/d' },
    { op: 'move', from: '/d', path: '/e~1f' },
    { op: 'remove', path: '/a/b/0' },
    { op: 'test', path: '/c', value: 'y' },
  ]);
  assert.deepEqual(out, { a: { b: [9, 2, 3] }, c: 'y', 'e/f': 'y' });
  assert.deepEqual(doc, { a: { b: [1, 2] }, c: 'x' }, 'input untouched');
});

test('a failing test op is marked as such; a bad path is not', () => {
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]), (e: unknown) => e instanceof JsonPatchError && e.testFailed);
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]), (e: unknown) => e instanceof JsonPatchError && !e.testFailed);
  assert.throws(() => applyJsonPatch({ a: 1 }, { op: 'add' }), JsonPatchError);
});

test('merge patch: null deletes, objects merge, arrays replace', () => {
  assert.deepEqual(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2], z: 1 }, { a: { b: null, d: 3 }, l: [3], z: null }), { a: { c: 2, d: 3 }, l: [3] });
  assert.deepEqual(applyMergePatch({ a: 1 }, [1]), [1]);
});
