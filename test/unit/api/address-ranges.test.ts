import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRange, mergeRanges, parseAddress, parseCidr, subtractRanges } from '../../../src/api/address-ranges.ts';

const cidr = (s: string) => parseCidr(s)!.range;

test('addresses of both families as numbers, CIDRs as ranges (host bits ignored)', () => {
  assert.deepEqual(parseAddress('10.42.0.1'), { family: 4, value: 0x0a2a0001n });
  assert.deepEqual(parseAddress('fd00::1'), { family: 6, value: (0xfd00n << 112n) | 1n });
  assert.deepEqual(parseAddress('::ffff:10.0.0.1'), { family: 6, value: (0xffffn << 32n) | 0x0a000001n });
  assert.equal(parseAddress('10.0.0'), undefined);
  assert.deepEqual(parseAddress('010.000.0.1'), { family: 4, value: 0x0a000001n }, 'leading zeros read as decimal, as Go\'s sloppy parse');
  assert.deepEqual(parseAddress('1:2:3:4:5:6:7:8'), { family: 6, value: 0x00010002000300040005000600070008n });
  assert.deepEqual(parseAddress('::'), { family: 6, value: 0n });
  for (const bad of ['256.0.0.1', '1.2.3.4.5', 'a.b.c.d', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', '12345::', ':1::', '::g', 'fe80::1%eth0', '']) assert.equal(parseAddress(bad), undefined, bad);
  assert.deepEqual(parseCidr('10.42.3.7/16'), { family: 4, range: { from: 0x0a2a0000n, to: 0x0a2affffn } });
  assert.deepEqual(parseCidr('0.0.0.0/0')!.range, { from: 0n, to: 0xffffffffn });
  assert.equal(parseCidr('10.0.0.0/33'), undefined);
  assert.equal(parseCidr('10.0.0.0'), undefined);
  assert.equal(parseCidr('10.0.0.0/x'), undefined);
});

test('ranges merge when they overlap or touch, and exceptions cut holes', () => {
  assert.deepEqual(mergeRanges([cidr('10.0.1.0/24'), cidr('10.0.0.0/24'), cidr('10.0.0.128/25'), cidr('10.0.3.0/24')]), [cidr('10.0.0.0/23'), cidr('10.0.3.0/24')]);
  const left = subtractRanges([cidr('10.0.0.0/8')], [cidr('10.42.0.0/16'), cidr('10.0.0.0/16'), cidr('192.168.0.0/16')]);
  assert.deepEqual(left.map(r => formatRange(4, r)), ['10.1.0.0-10.41.255.255', '10.43.0.0-10.255.255.255']);
  assert.deepEqual(subtractRanges([cidr('10.0.0.0/24')], [cidr('10.0.0.0/8')]), []);
});

test('nft elements: one address, an exact prefix, or a from-to range', () => {
  assert.equal(formatRange(4, cidr('10.0.0.5/32')), '10.0.0.5');
  assert.equal(formatRange(4, cidr('10.0.0.0/24')), '10.0.0.0/24');
  assert.equal(formatRange(4, { from: 0x0a000001n, to: 0x0a000002n }), '10.0.0.1-10.0.0.2');
  assert.equal(formatRange(6, cidr('2001:db8::/32')), '2001:db8:0:0:0:0:0:0/32');
  assert.equal(formatRange(4, cidr('0.0.0.0/0')), '0.0.0.0/0');
});
