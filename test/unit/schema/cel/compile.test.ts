// Compiling CEL as Kubernetes reports it: cel-go's error text, line, column and caret.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelCompileError, compileCel } from '../../../../src/schema/cel/compile.ts';

function compileError(expression: string, vars: string[] = ['object']): string {
  try {
    compileCel(expression, vars);
  } catch (err) {
    assert.ok(err instanceof CelCompileError);
    return err.message;
  }
  assert.fail(`${expression} compiled`);
}

test('undeclared variables and functions', () => {
  assert.equal(compileError('foo.bar == 1'), "ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar == 1\n | ^");
  assert.equal(compileError('object.x.nofunc()'), "ERROR: <input>:1:9: undeclared reference to 'nofunc' (in container '')\n | object.x.nofunc()\n | ........^");
  assert.match(compileError('params.x', ['object']), /undeclared reference to 'params'/);
});

test('syntax errors point at the line and column', () => {
  assert.match(compileError('object.a &&'), /^ERROR: <input>:1:\d+: Syntax error: /);
  assert.match(compileError('object.a == 1 &&\n  object.b =='), /^ERROR: <input>:2:\d+: Syntax error: /);
});

test('comprehension variables, type names and macros compile', () => {
  for (const e of ['object.items.all(i, i > 0)', 'type(object) == map', 'has(object.spec)', '[1].map(x, x * 2).filter(y, y > 1).size() > 0']) {
    compileCel(e, ['object']);
  }
});
