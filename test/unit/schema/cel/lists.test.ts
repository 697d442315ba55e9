// Kubernetes' CEL list library on @bufbuild/cel.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';

test('isSorted on ints, strings and doubles', () => {
  assert.equal(evaluate('[1, 2, 2, 3].isSorted()'), true);
  assert.equal(evaluate('[3, 1].isSorted()'), false);
  assert.equal(evaluate("['a', 'b'].isSorted()"), true);
  assert.equal(evaluate('[].isSorted()'), true);
  assert.equal(evaluate('[2.5, 1.0].isSorted()'), false);
});

test('sum of ints and doubles; an empty list sums to 0; strings cannot be summed', () => {
  assert.equal(evaluate('[1, 2, 3].sum()'), 6);
  assert.equal(evaluate('[1.5, 2.0].sum()'), 3.5);
  assert.equal(evaluate('[].sum()'), 0);
  assert.match((evaluate("['a', 'b'].sum()") as { error: string }).error, /no such overload/);
  assert.equal(evaluate('object.items.sum() == 10', { object: { items: [4, 6] } }), true);
});

test('min and max; an empty list is an error', () => {
  assert.equal(evaluate('[3, 1, 2].min()'), 1);
  assert.equal(evaluate('[3, 1, 2].max()'), 3);
  assert.equal(evaluate("['b', 'a'].min()"), 'a');
  assert.deepEqual(evaluate('[].min()'), { error: 'min called on empty list' });
  assert.deepEqual(evaluate('[].max()'), { error: 'max called on empty list' });
  assert.match((evaluate("[1, 'a'].max()") as { error: string }).error, /no matching overload/);
});

test('indexOf and lastIndexOf by CEL equality', () => {
  assert.equal(evaluate("['a', 'b', 'a'].indexOf('a')"), 0);
  assert.equal(evaluate("['a', 'b', 'a'].lastIndexOf('a')"), 2);
  assert.equal(evaluate("['a'].indexOf('z')"), -1);
  assert.equal(evaluate('[[1], [2]].indexOf([2])'), 1);
  assert.equal(evaluate('[1, 2].lastIndexOf(2.0)'), 1);
});
