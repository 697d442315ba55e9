// Request bodies: the 3 MiB limit, and a body that stalls given up when the request is abandoned.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { readBody } from '../../../src/apiserver/body.ts';
import { StatusError } from '../../../src/api/status.ts';

test('past the limit: 413 in kube-apiserver\'s words', async () => {
  const s = new PassThrough();
  const read = readBody(s, 10);
  s.end(Buffer.alloc(11));
  await assert.rejects(read, (e: unknown) => e instanceof StatusError && e.code === 413 && e.message === 'Request entity too large: limit is 10');
});

test('a stalled body fails as soon as its request is abandoned, with the error given', async () => {
  const s = new PassThrough();
  const ac = new AbortController();
  const read = readBody(s, 100, ac.signal, () => new Error('timed out'));
  s.write('{"metadata":');
  ac.abort();
  await assert.rejects(read, /timed out/);
  // a whole body read before any abort is unaffected
  const whole = new PassThrough();
  const ok = readBody(whole, 100, new AbortController().signal);
  whole.end('{}');
  assert.equal(String(await ok), '{}');
});
