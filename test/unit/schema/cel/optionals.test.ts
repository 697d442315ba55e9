// cel-go's optional values through plain calls (the parser has no `?.` syntax).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';

const cases: Array<[string, unknown]> = [
  ['optional.of(1).hasValue()', true],
  ['optional.none().hasValue()', false],
  ['optional.none().orValue(3)', 3],
  ['optional.of(2).value() + 1', 3],
  ['optional.ofNonZeroValue("").hasValue()', false],
  ['optional.ofNonZeroValue([1]).value()', [1]],
  ['optional.none().or(optional.of("x")).value()', 'x'],
  ['optional.of({"a": 1}).value().a', 1],
  ['optional.none().value()', { error: 'optional.none() dereference' }],
];

for (const [expr, want] of cases) test(expr, () => assert.deepEqual(evaluate(expr), want));
