import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intSyntaxError, queryBool } from '../../../src/apiserver/query-params.ts';
import { parseRequestInfo } from '../../../src/apiserver/request-info.ts';

const q = (s: string) => new URLSearchParams(s);

test('booleans: false only for 0 and false in any case; anything else given is true; absent is unset', () => {
  for (const v of ['true', 'True', 'TRUE', 't', 'yes', '1', '', 'no', 'off']) assert.equal(queryBool(q(`x=${v}`), 'x'), true, v);
  for (const v of ['false', 'False', 'FALSE', 'fAlSe', '0']) assert.equal(queryBool(q(`x=${v}`), 'x'), false, v);
  assert.equal(queryBool(q('y=1'), 'x'), undefined);
  // the first value counts, as with Go's query conversion
  assert.equal(queryBool(q('x=0&x=1'), 'x'), false);
});

test('watch=True, watch=t and watch=yes all watch a collection; watch=false and watch=0 list it', () => {
  for (const v of ['True', 't', 'yes', '1', 'true', '']) assert.equal(parseRequestInfo('GET', '/api/v1/pods', q(`watch=${v}`)).verb, 'watch', v);
  for (const v of ['false', 'FALSE', '0']) assert.equal(parseRequestInfo('GET', '/api/v1/pods', q(`watch=${v}`)).verb, 'list', v);
});

test('integers are 64-bit: strconv\'s words for what does not parse or does not fit', () => {
  assert.equal(intSyntaxError('9223372036854775807', false), undefined);
  assert.equal(intSyntaxError('-9223372036854775808', false), undefined);
  assert.equal(intSyntaxError('9223372036854775808', false), 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
  assert.equal(intSyntaxError('99999999999999999999', false), 'strconv.ParseInt: parsing "99999999999999999999": value out of range');
  assert.equal(intSyntaxError('1.5', false), 'strconv.ParseInt: parsing "1.5": invalid syntax');
  assert.equal(intSyntaxError('18446744073709551615', true), undefined);
  assert.equal(intSyntaxError('18446744073709551616', true), 'strconv.ParseUint: parsing "18446744073709551616": value out of range');
  assert.equal(intSyntaxError('-1', true), 'strconv.ParseUint: parsing "-1": invalid syntax');
  assert.equal(intSyntaxError('1e3', true), 'strconv.ParseUint: parsing "1e3": invalid syntax');
});
