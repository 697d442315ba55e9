import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveFormat, stringMatchesFormat } from '../../../../src/schema/structural/formats.ts';

// [format, valid values, invalid values]
const cases: [string, string[], string[]][] = [
  ['date', ['2024-02-29', '1999-12-31'], ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1']],
  ['date-time', ['2024-02-29T12:00:00Z', '2024-01-01T00:00:00.123+02:00', '2024-01-01 10:00:00Z'], ['2024-01-01', '2024-01-01T25:00:00Z', 'now']],
  ['uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456', 'zzze4567-e89b-12d3-a456-426614174000']],
  ['uuid4', ['123e4567-e89b-42d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-426614174000']],
  ['byte', ['aGVsbG8=', 'aGVsbG8h'], ['hello!', 'aGVsbG8']],
  ['ipv4', ['10.0.0.1'], ['10.0.0.256', '010.0.0.1', '::1']],
  ['ipv6', ['::1', 'fe80::1', '::ffff:1.2.3.4'], ['10.0.0.1', 'fe80:::1']],
  ['cidr', ['10.0.0.0/8', 'fd00::/64'], ['10.0.0.0', '10.0.0.0/33']],
  ['mac', ['00:1a:2b:3c:4d:5e', '00-1A-2B-3C-4D-5E'], ['00:1a:2b:3c:4d', '00:1a-2b:3c:4d:5e']],
  ['hostname', ['example.com', 'localhost'], ['-bad.example.com', 'a..b']],
  ['email', ['a@b.c'], ['no-at-sign']],
  ['uri', ['https://example.com/x', '/abs/path'], ['relative/path', 'http://[::1']],
  ['hexcolor', ['#fff', 'a0b1c2'], ['#ffff']],
  ['rgbcolor', ['rgb(0, 128, 255)'], ['rgb(256,0,0)']],
  ['ssn', ['123-45-6789'], ['123456']],
  ['isbn10', ['0321751043'], ['0321751044']],
  ['isbn13', ['978-0321751041'], ['978-0321751042']],
  ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
  ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901']],
  ['duration', ['1h30m', '3 days', '500ms'], ['forever', '1x']],
  ['password', ['anything at all'], []],
  ['k8s-short-name', ['my-name'], ['My-Name', 'a.b']],
  ['k8s-long-name', ['my.name.example'], ['my..name']],
];

for (const [format, good, bad] of cases) {
  test(`format ${format}`, () => {
    for (const v of good) assert.equal(stringMatchesFormat(format, v), true, `${format} accepts ${v}`);
    for (const v of bad) assert.equal(stringMatchesFormat(format, v), false, `${format} refuses ${v}`);
  });
}

test('formats apiextensions strips', () => {
  assert.equal(effectiveFormat('string', 'date-time'), 'date-time');
  assert.equal(effectiveFormat('string', 'datetime'), 'datetime');
  assert.equal(effectiveFormat('string', 'int32'), '');
  assert.equal(effectiveFormat('string', 'color'), '');
  assert.equal(effectiveFormat('integer', 'int32'), 'int32');
  assert.equal(effectiveFormat('integer', 'date'), '');
  assert.equal(effectiveFormat('number', 'double'), 'double');
  assert.equal(effectiveFormat('number', 'int64'), '');
  assert.equal(effectiveFormat('boolean', 'date'), '');
  assert.equal(effectiveFormat(undefined, 'uuid'), 'uuid');
});
