import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dealHand, flowHash } from '../../../../src/apiserver/flowcontrol/shuffle-shard.ts';

test('a hash deals its digits in the mixed radix of the shrinking deck, skipping cards already dealt', () => {
  // 0 is all zero digits: the lowest cards in order
  assert.deepEqual(dealHand(0n, 128, 6), [0, 1, 2, 3, 4, 5]);
  // 5 in a deck of 10: first digit 5, then zeros, which skip nothing below 5 but the 0 dealt
  assert.deepEqual(dealHand(5n, 10, 3), [5, 0, 1]);
  // 10 + 9 * 3 = 37 in a deck of 10: digits 7, 3, 0
  assert.deepEqual(dealHand(37n, 10, 3), [7, 3, 0]);
  // the largest hash still deals distinct cards within the deck
  const hand = dealHand(2n ** 64n - 1n, 128, 6);
  assert.equal(new Set(hand).size, 6);
  assert.ok(hand.every(c => c >= 0 && c < 128));
});

test('a flow always gets the same hand, and flows spread over every queue', () => {
  assert.equal(flowHash('workload-low', 'alice'), flowHash('workload-low', 'alice'));
  assert.notEqual(flowHash('workload-low', 'alice'), flowHash('workload-low', 'bob'));
  // the separator keeps ("ab", "c") and ("a", "bc") apart
  assert.notEqual(flowHash('ab', 'c'), flowHash('a', 'bc'));
  const seen = new Array(64).fill(0);
  for (let i = 0; i < 2000; i++) {
    const hand = dealHand(flowHash('global-default', `user-${i}`), 64, 6);
    assert.equal(new Set(hand).size, 6, 'a hand has no card twice');
    for (const q of hand) seen[q]++;
  }
  // 12000 cards over 64 queues: about 187 each
  assert.ok(Math.min(...seen) > 120 && Math.max(...seen) < 260, `uneven: ${Math.min(...seen)}..${Math.max(...seen)}`);
});
