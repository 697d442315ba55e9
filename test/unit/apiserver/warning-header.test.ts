// Warning headers as apimachinery's NewWarningHeader writes them, and what it refuses to write.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warningHeader, warningHeaders } from '../../../src/apiserver/warning-header.ts';

test('quotes and backslashes escaped, the rest as it is', () => {
  assert.equal(warningHeader('unknown field "spec.x"'), '299 - "unknown field \\"spec.x\\""');
  assert.equal(warningHeader('a\\b'), '299 - "a\\\\b"');
});

test('text beyond Latin-1 goes as its UTF-8 bytes, which Node writes as they are', () => {
  const header = warningHeader('unknown field "spec.é☃"')!;
  assert.equal(Buffer.from(header, 'latin1').toString('utf8'), '299 - "unknown field \\"spec.é☃\\""');
  assert.ok([...header].every(c => c.charCodeAt(0) <= 0xff));
});

test('control characters, invalid UTF-8 and empty text make no header', () => {
  for (const text of ['a\nb', 'tab\there', '\u0000', 'del\u007f', 'c1\u0085', 'lone \ud800', '']) assert.equal(warningHeader(text), undefined, JSON.stringify(text));
  assert.deepEqual(warningHeaders(['ok', 'bad\r\n', 'fine']), ['299 - "ok"', '299 - "fine"']);
});
