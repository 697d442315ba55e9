import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote } from '../../../../src/api/selectors/go-quote.ts';

test('plain text is wrapped in double quotes', () => {
  assert.equal(goQuote('spec.nodeName'), '"spec.nodeName"');
  assert.equal(goQuote(''), '""');
  assert.equal(goQuote('a b'), '"a b"');
});

test('quotes, backslashes and control characters use Go escapes', () => {
  assert.equal(goQuote('a"b'), '"a\\"b"');
  assert.equal(goQuote('a\\b'), '"a\\\\b"');
  assert.equal(goQuote('\n\t\r\x07\x08\x0c\x0b'), '"\\n\\t\\r\\a\\b\\f\\v"');
  assert.equal(goQuote('\x00\x1f\x7f'), '"\\x00\\x1f\\x7f"');
});

test('printable Unicode stays; invisible Unicode is escaped', () => {
  assert.equal(goQuote('héllo ✓ 日本'), '"héllo ✓ 日本"');
  assert.equal(goQuote('\u00a0'), '"\\u00a0"');
  assert.equal(goQuote('\u200b'), '"\\u200b"');
  assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
  assert.equal(goQuote('😀'), '"😀"');
});
