// Whether one set of rules covers another: the test behind RBAC's escalation prevention. The
// rules to grant are broken into atoms (one verb on one group/resource/name, or one verb on one
// URL); each atom must be covered by some rule held. What is missing is reported compacted.

import type { PolicyRule } from './rules.ts';

export function breakdown(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs) {
        if (r.resourceNames?.length) for (const name of r.resourceNames) out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) for (const verb of r.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const covered = (owner: string[] | undefined, want: string) => !!owner && (owner.includes('*') || owner.includes(want));

function resourceCovers(owner: string[] | undefined, want: string): boolean {
  if (covered(owner, want)) return true;
  const slash = want.indexOf('/');
  // `*/scale` held covers `deployments/scale` asked for
  return slash > 0 && !!owner?.includes(`*${want.slice(slash)}`);
}

function urlCovers(owner: string[] | undefined, want: string): boolean {
  for (const u of owner ?? []) {
    if (u === '*' || u === want) return true;
    if (u.endsWith('*') && want.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

function ruleCovers(owner: PolicyRule, atom: PolicyRule): boolean {
  if (!covered(owner.verbs, atom.verbs[0]!)) return false;
  if (atom.nonResourceURLs?.length) return urlCovers(owner.nonResourceURLs, atom.nonResourceURLs[0]!);
  if (!covered(owner.apiGroups, atom.apiGroups![0]!) || !resourceCovers(owner.resources, atom.resources![0]!)) return false;
  if (!owner.resourceNames?.length) return true;
  return !!atom.resourceNames?.length && owner.resourceNames.includes(atom.resourceNames[0]!);
}

/** the atoms of `servant` that no rule of `owner` covers */
export function missingRules(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const r of servant) for (const atom of breakdown(r)) if (!owner.some(o => ruleCovers(o, atom))) missing.push(atom);
  return missing;
}

/** simple atoms (one group, one resource, no names) merged by group and resource, verbs gathered */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    if (!r.nonResourceURLs?.length && !r.resourceNames?.length && r.apiGroups?.length === 1 && r.resources?.length === 1) {
      const key = `${r.apiGroups[0]}\0${r.resources[0]}`;
      const have = simple.get(key);
      if (have) { for (const v of r.verbs) if (!have.verbs.includes(v)) have.verbs.push(v); continue; }
      const copy = { apiGroups: [...r.apiGroups], resources: [...r.resources], verbs: [...r.verbs] };
      simple.set(key, copy);
      out.push(copy);
    } else {
      out.push(r);
    }
  }
  return out;
}
