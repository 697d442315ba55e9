// Where simulated nodes live on the network they do not have: node i's address is the i+1st of
// 172.16.0.0/12 and its pods' subnet is 10.(128 + i/256).(i%256).0/24, so no two nodes of a pool
// share an address and none collides with `orch up`'s pod (10.42/16) or service (10.43/16) ranges.

export const maxSimNodes = 32_768;

export function simNodeAddresses(i: number): { ip: string; subnet: string } {
  const n = i + 1;
  return { ip: `172.${16 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`, subnet: `10.${128 + (i >> 8)}.${i & 255}` };
}
