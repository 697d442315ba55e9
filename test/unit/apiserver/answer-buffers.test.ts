// List answers' buffers are used again once their response has closed, by power-of-two size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerBytesKept, giveBackAnswerBuffer, takeAnswerBuffer } from '../../../src/apiserver/answer-buffers.ts';

test('a buffer given back is taken again for a size of its class; small and huge ones are never kept', () => {
  const a = takeAnswerBuffer(300_000);
  assert.equal(a.length, 300_000);
  assert.equal(a.buffer.byteLength, 1 << 19, 'rounded up to a power of two');
  giveBackAnswerBuffer(a);
  assert.equal(answerBytesKept(), 1 << 19);
  const b = takeAnswerBuffer(400_000);
  assert.equal(b.buffer, a.buffer, 'the same memory, for another answer of that class');
  assert.equal(b.length, 400_000);
  assert.equal(answerBytesKept(), 0);
  const c = takeAnswerBuffer(200_000);
  assert.notEqual(c.buffer, a.buffer, 'a smaller class is another buffer');
  for (const size of [100, 20_000, 20 << 20]) {
    const x = takeAnswerBuffer(size);
    assert.equal(x.length, size);
    giveBackAnswerBuffer(x);
    assert.equal(answerBytesKept(), 0, `${size} bytes: not kept`);
  }
  // a buffer the pool did not make is not taken in, whatever its size
  giveBackAnswerBuffer(Buffer.alloc(1 << 16));
  assert.equal(answerBytesKept(), 0);
  giveBackAnswerBuffer(b);
  giveBackAnswerBuffer(c);
});

test('at most 64 MiB are kept, and none ten seconds after the last came back', t => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const many = Array.from({ length: 6 }, () => takeAnswerBuffer(16 << 20));
  for (const m of many) giveBackAnswerBuffer(m);
  const kept = answerBytesKept();
  assert.ok(kept <= 64 << 20 && kept > 48 << 20, `${kept} bytes kept`);
  t.mock.timers.tick(9_999);
  assert.equal(answerBytesKept(), kept);
  t.mock.timers.tick(1);
  assert.equal(answerBytesKept(), 0, 'an idle server keeps none');
});
