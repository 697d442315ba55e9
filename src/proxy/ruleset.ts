// An nftables table as data: chains (base chains with their hook), sets and maps with their
// elements. The generator builds one; this file writes it as `nft -f` scripts, either whole (a
// full sync, which also removes what a previous run left and this one no longer wants) or as
// the difference from the table last written (a partial sync: only changed chains are flushed
// and refilled, only changed elements touched), each script one transaction.

export interface Chain {
  /** `type nat hook prerouting priority dstnat; policy accept;` for a base chain */
  hook?: string;
  rules: string[];
}

export interface NftSet {
  kind: 'set' | 'map';
  /** the declaration inside the braces: `type ipv4_addr . inet_proto . inet_service : verdict;` */
  spec: string;
  /** keys (sets) or `key : value` (maps) */
  elements: string[];
  /** filled by the packet path (`update @set`): its elements are never flushed or diffed */
  dynamic?: boolean;
}

export interface Ruleset {
  family: 'ip' | 'ip6';
  table: string;
  chains: Map<string, Chain>;
  sets: Map<string, NftSet>;
}

export function emptyRuleset(family: 'ip' | 'ip6', table: string): Ruleset {
  return { family, table, chains: new Map(), sets: new Map() };
}

/** the table as `nft list table` shows it (sorted, for tests and `--dry-run`) */
export function renderRuleset(r: Ruleset): string {
  const lines = [`table ${r.family} ${r.table} {`];
  for (const [name, s] of [...r.sets].sort(byName)) {
    lines.push(`\t${s.kind} ${name} {`, ...s.spec.split(';').map(x => x.trim()).filter(Boolean).map(x => `\t\t${x}`));
    if (s.elements.length && !s.dynamic) lines.push(`\t\telements = { ${[...s.elements].sort().join(',\n\t\t\t     ')} }`);
    lines.push('\t}');
  }
  for (const [name, c] of [...r.chains].sort(byName)) {
    lines.push(`\tchain ${name} {`);
    if (c.hook) lines.push(`\t\t${c.hook}`);
    for (const rule of c.rules) lines.push(`\t\t${rule}`);
    lines.push('\t}');
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

const byName = <T>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** what exists in the kernel's table now (by name), as read from `nft -j list table` */
export interface ExistingTable {
  chains: string[];
  sets: Array<{ name: string; kind: 'set' | 'map' }>;
}

function writer(r: Ruleset) {
  const at = `${r.family} ${r.table}`;
  const out: string[] = [];
  return {
    out,
    addChain: (name: string, c: Chain) => out.push(c.hook ? `add chain ${at} ${name} { ${c.hook} }` : `add chain ${at} ${name}`),
    flushChain: (name: string) => out.push(`flush chain ${at} ${name}`),
    rules: (name: string, c: Chain) => { for (const rule of c.rules) out.push(`add rule ${at} ${name} ${rule}`); },
    deleteChain: (name: string) => out.push(`delete chain ${at} ${name}`),
    addSet: (name: string, s: NftSet) => out.push(`add ${s.kind} ${at} ${name} { ${s.spec} }`),
    flushSet: (name: string, s: { kind: string }) => out.push(`flush ${s.kind} ${at} ${name}`),
    deleteSet: (name: string, s: { kind: string }) => out.push(`delete ${s.kind} ${at} ${name}`),
    elements: (verb: 'add' | 'delete', name: string, elements: string[]) => {
      // in slices: one command per element would make large scripts slow to parse
      for (let i = 0; i < elements.length; i += 1000) out.push(`${verb} element ${at} ${name} { ${elements.slice(i, i + 1000).join(', ')} }`);
    },
    table: () => out.push(`add table ${at} { comment "rules for orch's service proxy" ; }`),
  };
}

/**
 * The whole table written afresh in one transaction: every chain flushed and refilled, every
 * set and map refilled (dynamic ones kept), and whatever `existing` holds that `r` does not
 * removed — a restart reconciles what the last run left behind.
 */
export function fullSyncScript(r: Ruleset, existing: ExistingTable = { chains: [], sets: [] }): string {
  const w = writer(r);
  w.table();
  for (const [name, c] of r.chains) { w.addChain(name, c); }
  // flushing every chain of the table first (ours and leftovers) drops every reference to
  // stale chains and sets, so they can be deleted below in the same transaction
  for (const name of new Set([...r.chains.keys(), ...existing.chains])) w.flushChain(name);
  for (const [name, s] of r.sets) { w.addSet(name, s); if (!s.dynamic) w.flushSet(name, s); }
  for (const s of existing.sets) if (!r.sets.has(s.name) && s.kind === 'map') w.flushSet(s.name, s);
  for (const [name, s] of r.sets) if (!s.dynamic && s.elements.length) w.elements('add', name, s.elements);
  for (const [name, c] of r.chains) w.rules(name, c);
  for (const name of existing.chains) if (!r.chains.has(name)) w.deleteChain(name);
  for (const s of existing.sets) if (!r.sets.has(s.name)) w.deleteSet(s.name, s);
  return `${w.out.join('\n')}\n`;
}

const sameChain = (a: Chain, b: Chain) => a === b || a.hook === b.hook && a.rules.length === b.rules.length && a.rules.every((x, i) => x === b.rules[i]);

/** map keys are unique: a changed value is the old element deleted and the new one added */
const keyOf = (s: NftSet, e: string) => (s.kind === 'map' ? e.slice(0, e.lastIndexOf(' : ')) : e);

/**
 * The difference from `prev` (the table as last written) to `next`, or '' when they are equal.
 * Order matters within the transaction: new chains and sets exist before anything refers to
 * them; elements and rules that refer to chains about to go are gone before those chains.
 */
export function partialSyncScript(prev: Ruleset, next: Ruleset): string {
  const w = writer(next);
  const changed: string[] = [];
  for (const [name, c] of next.chains) {
    const old = prev.chains.get(name);
    if (!old) { w.addChain(name, c); changed.push(name); } else if (!sameChain(old, c)) changed.push(name);
  }
  for (const [name, s] of next.sets) {
    const old = prev.sets.get(name);
    if (old && old.spec !== s.spec) throw new Error(`set ${name} changed its declaration; a full sync is needed`);
    if (!old) w.addSet(name, s);
  }
  const added: Array<[string, string[]]> = [];
  for (const [name, s] of next.sets) {
    if (s.dynamic) continue;
    const old = prev.sets.get(name);
    const before = new Set(old?.elements ?? []);
    const after = new Set(s.elements);
    const gone = [...before].filter(e => !after.has(e));
    if (gone.length) w.elements('delete', name, gone.map(e => keyOf(s, e)));
    const fresh = s.elements.filter(e => !before.has(e));
    if (fresh.length) added.push([name, fresh]);
  }
  for (const name of changed) if (prev.chains.has(name)) w.flushChain(name);
  for (const name of prev.chains.keys()) if (!next.chains.has(name)) w.flushChain(name);
  for (const name of changed) w.rules(name, next.chains.get(name)!);
  for (const [name, fresh] of added) w.elements('add', name, fresh);
  for (const name of prev.chains.keys()) if (!next.chains.has(name)) w.deleteChain(name);
  for (const [name, s] of prev.sets) if (!next.sets.has(name)) w.deleteSet(name, s);
  return w.out.length ? `${w.out.join('\n')}\n` : '';
}

/** the chains and sets of a table from its `nft -j list table` JSON */
export function existingTable(json: unknown): ExistingTable {
  const out: ExistingTable = { chains: [], sets: [] };
  for (const item of (json as { nftables?: Array<Record<string, any>> } | undefined)?.nftables ?? []) {
    if (item.chain) out.chains.push(String(item.chain.name));
    else if (item.set) out.sets.push({ name: String(item.set.name), kind: 'set' });
    else if (item.map) out.sets.push({ name: String(item.map.name), kind: 'map' });
  }
  return out;
}
