// A ruleset as an nft script, whole or as the change from the ruleset applied before. Either is
// applied by one `nft -f -`, one kernel transaction: packets see the old rules or the new ones.
// The whole script deletes and remakes the table, which also clears whatever an earlier run left
// (a restart reconciles by applying it once); a change touches only the sets whose elements
// changed and the chains whose rules changed, so a pod coming or going costs a few elements.

import type { NftChain, NftSet, Ruleset } from './ruleset.ts';

export interface Table { family: 'inet'; name: string }

const at = (t: Table) => `${t.family} ${t.name}`;

function declareSet(t: Table, name: string, s: NftSet): string {
  return `add set ${at(t)} ${name} { type ${s.type};${s.interval ? ' flags interval;' : ''} }`;
}

/** elements in lines of a thousand, so a large set never makes one enormous line */
function addElements(t: Table, name: string, elements: string[], verb = 'add'): string[] {
  const out: string[] = [];
  for (let i = 0; i < elements.length; i += 1000) out.push(`${verb} element ${at(t)} ${name} { ${elements.slice(i, i + 1000).join(', ')} }`);
  return out;
}

function declareChain(t: Table, name: string, c: NftChain): string {
  return c.hook ? `add chain ${at(t)} ${name} { type filter hook ${c.hook} priority filter; policy accept; }` : `add chain ${at(t)} ${name}`;
}

const addRules = (t: Table, name: string, c: NftChain) => c.rules.map(r => `add rule ${at(t)} ${name} ${r}`);

/** the table made anew with exactly this ruleset */
export function fullScript(t: Table, r: Ruleset): string {
  const lines = [`add table ${at(t)}`, `delete table ${at(t)}`, `add table ${at(t)}`];
  for (const [name, s] of r.sets) lines.push(declareSet(t, name, s), ...addElements(t, name, s.elements));
  // every chain exists before any rule jumps to it
  for (const [name, c] of r.chains) lines.push(declareChain(t, name, c));
  for (const [name, c] of r.chains) lines.push(...addRules(t, name, c));
  return `${lines.join('\n')}\n`;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * what turns `before` into `after`: '' when nothing changed; undefined when only a whole
 * script can (a set's type or a chain's hook changed)
 */
export function changeScript(t: Table, before: Ruleset, after: Ruleset): string | undefined {
  const decls: string[] = [];
  const elements: string[] = [];
  const rules: string[] = [];
  const removals: string[] = [];
  for (const [name, s] of after.sets) {
    const old = before.sets.get(name);
    if (!old) { decls.push(declareSet(t, name, s)); elements.push(...addElements(t, name, s.elements)); continue; }
    if (old.type !== s.type || old.interval !== s.interval) return undefined;
    if (sameList(old.elements, s.elements)) continue;
    if (s.interval) {
      // ranges may merge or split as addresses come and go: the set is written again
      elements.push(`flush set ${at(t)} ${name}`, ...addElements(t, name, s.elements));
    } else {
      const keep = new Set(s.elements);
      const had = new Set(old.elements);
      elements.push(...addElements(t, name, old.elements.filter(e => !keep.has(e)), 'delete'), ...addElements(t, name, s.elements.filter(e => !had.has(e))));
    }
  }
  for (const [name, c] of after.chains) {
    const old = before.chains.get(name);
    if (!old) { decls.push(declareChain(t, name, c)); rules.push(...addRules(t, name, c)); continue; }
    if (old.hook !== c.hook) return undefined;
    if (!sameList(old.rules, c.rules)) rules.push(`flush chain ${at(t)} ${name}`, ...addRules(t, name, c));
  }
  // chains go once nothing jumps to them any more, sets once no rule looks them up
  for (const name of before.chains.keys()) if (!after.chains.has(name)) removals.push(`flush chain ${at(t)} ${name}`, `delete chain ${at(t)} ${name}`);
  for (const name of before.sets.keys()) if (!after.sets.has(name)) removals.push(`delete set ${at(t)} ${name}`);
  const lines = [...decls, ...elements, ...rules, ...removals];
  return lines.length ? `${lines.join('\n')}\n` : '';
}
