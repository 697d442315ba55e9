// Shuffle sharding: a flow (its FlowSchema and distinguisher) hashes to a hand of queues, and its
// requests go to the shortest queue of that hand, so that a flooding flow fills only its own
// hand and another flow shares all of its hand with it only rarely.

import { createHash } from 'node:crypto';

/** the flow's 64-bit hash: SHA-256 of the schema name, a zero byte, the distinguisher (first 8 bytes, little-endian) */
export function flowHash(flowSchema: string, distinguisher: string): bigint {
  const h = createHash('sha256');
  h.update(flowSchema);
  h.update(Buffer.of(0));
  h.update(distinguisher);
  return h.digest().readBigUInt64LE(0);
}

/**
 * The hand of `handSize` distinct queue indexes below `deckSize` that `hash` deals: its digits in
 * the mixed radix deckSize, deckSize-1, ... pick from the cards not dealt yet (as Kubernetes'
 * shufflesharding.Dealer, so a flow lands on the same queues as it would there).
 */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    remainders.push(Number(h % radix));
    h /= radix;
  }
  return remainders.map((r, i) => {
    let card = r;
    // skip over the cards dealt before (each earlier remainder counts as a removed card)
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
    return card;
  });
}
