// Addresses as numbers and sets of addresses as sorted, disjoint ranges: what an ipBlock's CIDR
// less its exceptions leaves, united with other blocks and with pod addresses, is computed here
// exactly, so that nft gets intervals that never overlap (an interval set refuses overlaps) and
// a peer list becomes one set lookup whatever its shape. CIDRs are read as Go's ParseCIDRSloppy
// reads them (IPv4 parts with leading zeros are decimal), for the API's validation too.

export type Family = 4 | 6;

/** an inclusive range of addresses of one family */
export interface Range { from: bigint; to: bigint }

const bits = (f: Family) => (f === 4 ? 32 : 128);

// every sync reads every pod's addresses again: parsed once while they stay (bounded, in case
// addresses churn)
const parsed = new Map<string, { family: Family; value: bigint } | undefined>();

/** the family and numeric value of an address, or undefined when it is not one */
export function parseAddress(text: string): { family: Family; value: bigint } | undefined {
  if (parsed.has(text)) return parsed.get(text);
  if (parsed.size >= 200_000) parsed.clear();
  const a = parse(text);
  parsed.set(text, a);
  return a;
}

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return BigInt(n);
}

function parseV6(text: string): bigint | undefined {
  let s = text;
  let quad: bigint | undefined;
  // a trailing dotted quad (::ffff:1.2.3.4) stands for the last two groups
  if (s.includes('.')) {
    const at = s.lastIndexOf(':');
    quad = parseV4(s.slice(at + 1));
    if (quad === undefined) return undefined;
    s = `${s.slice(0, at + 1)}0:0`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...tail].every(g => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const all = [...head, ...Array(8 - count).fill('0'), ...tail];
  const value = all.reduce((a, g) => (a << 16n) | BigInt(parseInt(g, 16)), 0n);
  return quad === undefined ? value : (value & ~0xffffffffn) | quad;
}

function parse(text: string): { family: Family; value: bigint } | undefined {
  if (text.includes(':')) { const value = parseV6(text); return value === undefined ? undefined : { family: 6, value }; }
  const value = parseV4(text);
  return value === undefined ? undefined : { family: 4, value };
}

/** a CIDR's family and range; undefined when it is not a CIDR */
export function parseCidr(text: string): { family: Family; range: Range } | undefined {
  const slash = text.lastIndexOf('/');
  if (slash < 0) return undefined;
  const addr = parseAddress(text.slice(0, slash));
  const prefix = Number(text.slice(slash + 1));
  if (!addr || !/^\d+$/.test(text.slice(slash + 1)) || prefix > bits(addr.family)) return undefined;
  const host = (1n << BigInt(bits(addr.family) - prefix)) - 1n;
  const from = addr.value & ~host;
  return { family: addr.family, range: { from, to: from | host } };
}

/** sorted, disjoint, with touching ranges joined */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.from <= last.to + 1n) { if (r.to > last.to) last.to = r.to; } else out.push({ ...r });
  }
  return out;
}

/** what is left of `ranges` once every range of `minus` is taken out */
export function subtractRanges(ranges: Range[], minus: Range[]): Range[] {
  let left = mergeRanges(ranges);
  for (const m of mergeRanges(minus)) {
    const next: Range[] = [];
    for (const r of left) {
      if (m.to < r.from || m.from > r.to) { next.push(r); continue; }
      if (r.from < m.from) next.push({ from: r.from, to: m.from - 1n });
      if (r.to > m.to) next.push({ from: m.to + 1n, to: r.to });
    }
    left = next;
  }
  return left;
}

/** an address as nft reads it */
export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) { const n = Number(value); return `${Math.floor(n / 16777216)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`; }
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map(s => ((value >> s) & 0xffffn).toString(16)).join(':');
}

/** a range as an nft set element: one address, a prefix where it is exactly one, else a-b */
export function formatRange(family: Family, r: Range): string {
  if (r.from === r.to) return formatAddress(family, r.from);
  const size = r.to - r.from + 1n;
  if ((size & (size - 1n)) === 0n && (r.from & (size - 1n)) === 0n) {
    const prefix = bits(family) - (size.toString(2).length - 1);
    return `${formatAddress(family, r.from)}/${prefix}`;
  }
  return `${formatAddress(family, r.from)}-${formatAddress(family, r.to)}`;
}
