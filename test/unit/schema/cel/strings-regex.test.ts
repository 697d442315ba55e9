// The strings extension (cel-go's, as @bufbuild/cel provides it) and Kubernetes' regex library.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';

test('string functions', () => {
  assert.equal(evaluate("'hello'.charAt(1)"), 'e');
  assert.equal(evaluate("'hello'.indexOf('l')"), 2);
  assert.equal(evaluate("'hello'.lastIndexOf('l')"), 3);
  assert.equal(evaluate("'HeLLo'.lowerAscii()"), 'hello');
  assert.equal(evaluate("'HeLLo'.upperAscii()"), 'HELLO');
  assert.equal(evaluate("'a-b-c'.replace('-', '+')"), 'a+b+c');
  assert.equal(evaluate("'a-b-c'.replace('-', '+', 1)"), 'a+b-c');
  assert.deepEqual(evaluate("'a,b,c'.split(',')"), ['a', 'b', 'c']);
  assert.equal(evaluate("'hello'.substring(1, 3)"), 'el');
  assert.equal(evaluate("'  x \\t'.trim()"), 'x');
  assert.equal(evaluate("['a', 'b'].join('/')"), 'a/b');
  assert.equal(evaluate("object.metadata.name.startsWith('web-')", { object: { metadata: { name: 'web-1' } } }), true);
});

test('string function errors', () => {
  assert.ok('error' in (evaluate("'abc'.charAt(9)") as object));
  assert.ok('error' in (evaluate("'abc'.substring(2, 1)") as object));
  assert.ok('error' in (evaluate("'abc'.indexOf('a', 7)") as object));
});

test('find and findAll with RE2 patterns', () => {
  assert.equal(evaluate("'abc 123 def 456'.find('[0-9]+')"), '123');
  assert.equal(evaluate("'abc'.find('[0-9]+')"), '');
  assert.deepEqual(evaluate("'a1b22c333'.findAll('[0-9]+')"), ['1', '22', '333']);
  assert.deepEqual(evaluate("'a1b22c333'.findAll('[0-9]+', 2)"), ['1', '22']);
  assert.deepEqual(evaluate("'a1b22'.findAll('[0-9]+', 0)"), []);
  assert.equal(evaluate("'ABC'.find('(?i)b')"), 'B');
  assert.equal(evaluate("'abc'.matches('^a.c$')"), true);
});

test('patterns RE2 refuses are errors in its words', () => {
  const r = evaluate("'aa'.find('(a)\\\\1')") as { error: string };
  assert.match(r.error, /^error parsing regexp: invalid escape sequence/);
  assert.match((evaluate("'a'.findAll('(?=a)')") as { error: string }).error, /^error parsing regexp/);
});
