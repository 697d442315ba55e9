// Roles and bindings held in memory, indexed by subject, so that authorizing a request costs a
// few map look-ups rather than a scan of every binding. The resolved rules of a (user, groups,
// namespace) are remembered until any RBAC object changes.

import type { User } from '../context.ts';
import type { PolicyRule } from './rules.ts';

export interface RoleRef { apiGroup?: string; kind: string; name: string }
export interface Subject { kind: string; apiGroup?: string; name: string; namespace?: string }
interface Binding { roleRef: RoleRef; subjects: Subject[]; namespace: string }

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

export interface ResolvedRules {
  rules: PolicyRule[];
  errors: string[];
  /** per rule, the reason Kubernetes' RBAC gives when that rule allows (naming its grant) */
  reasons: string[];
}

const saPrefix = 'system:serviceaccount:';

function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User': return `u:${s.name}`;
    case 'Group': return `g:${s.name}`;
    // a ServiceAccount without a namespace in a RoleBinding is the binding's namespace's
    case 'ServiceAccount': { const ns = s.namespace || bindingNamespace; return ns ? `u:${saPrefix}${ns}:${s.name}` : undefined; }
    default: return undefined;
  }
}

/** `RoleBinding "name/namespace" of Role "r" to User "jane"`, the words of Kubernetes' reasons */
function describeGrant(key: string, b: Binding, subject: Subject | undefined): string {
  const name = key.slice(key.indexOf('/') + 1);
  const binding = b.namespace ? `RoleBinding ${JSON.stringify(`${name}/${b.namespace}`)}` : `ClusterRoleBinding ${JSON.stringify(name)}`;
  const who = !subject ? '' : subject.kind === 'ServiceAccount'
    ? ` to ServiceAccount ${JSON.stringify(`${subject.name}/${subject.namespace || b.namespace}`)}`
    : ` to ${subject.kind} ${JSON.stringify(subject.name)}`;
  return `${binding} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)}${who}`;
}

function userKeys(user: User): string[] {
  return [`u:${user.name}`, ...user.groups.map(g => `g:${g}`)];
}

export class RbacIndex {
  private roles = new Map<string, PolicyRule[]>(); // ns/name
  private clusterRoles = new Map<string, PolicyRule[]>();
  private bindings = new Map<string, Binding>(); // ns/name ('' ns: cluster role bindings)
  /** subject key → namespace ('' for cluster role bindings) → binding keys */
  private bySubject = new Map<string, Map<string, Set<string>>>();
  private memo = new Map<string, ResolvedRules>();

  /** an object as a watch reports it; `deleted` removes it */
  apply(kind: RbacKind, obj: { metadata: { name?: string; namespace?: string }; [k: string]: any }, deleted: boolean): void {
    this.memo.clear();
    const ns = kind === 'Role' || kind === 'RoleBinding' ? obj.metadata.namespace ?? '' : '';
    const key = `${ns}/${obj.metadata.name}`;
    if (kind === 'Role') { if (deleted) this.roles.delete(key); else this.roles.set(key, obj.rules ?? []); return; }
    if (kind === 'ClusterRole') { if (deleted) this.clusterRoles.delete(obj.metadata.name!); else this.clusterRoles.set(obj.metadata.name!, obj.rules ?? []); return; }
    this.unindex(key);
    if (deleted) return;
    const b: Binding = { roleRef: obj.roleRef, subjects: obj.subjects ?? [], namespace: ns };
    this.bindings.set(key, b);
    for (const s of b.subjects) {
      const sk = subjectKey(s, ns);
      if (!sk) continue;
      let byNs = this.bySubject.get(sk);
      if (!byNs) this.bySubject.set(sk, byNs = new Map());
      let keys = byNs.get(ns);
      if (!keys) byNs.set(ns, keys = new Set());
      keys.add(key);
    }
  }

  private unindex(key: string): void {
    const old = this.bindings.get(key);
    if (!old) return;
    this.bindings.delete(key);
    for (const s of old.subjects) {
      const sk = subjectKey(s, old.namespace);
      const byNs = sk ? this.bySubject.get(sk) : undefined;
      byNs?.get(old.namespace)?.delete(key);
    }
  }

  /**
   * after a watch restarted and listed everything again: objects of that kind it did not list
   * (deleted while no watch ran) are dropped. `seen` holds namespace/name keys.
   */
  retainOnly(kind: RbacKind, seen: Set<string>): void {
    const drop = (ns: string, name: string) => this.apply(kind, { metadata: { name, namespace: ns } }, true);
    if (kind === 'Role') for (const k of [...this.roles.keys()]) { if (!seen.has(k)) drop(k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)); }
    if (kind === 'ClusterRole') for (const k of [...this.clusterRoles.keys()]) { if (!seen.has(`/${k}`)) drop('', k); }
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') {
      for (const k of [...this.bindings.keys()]) {
        const ns = k.slice(0, k.indexOf('/'));
        if ((kind === 'RoleBinding') === (ns !== '') && !seen.has(k)) drop(ns, k.slice(ns.length + 1));
      }
    }
  }

  clusterRole(name: string): PolicyRule[] | undefined { return this.clusterRoles.get(name); }
  role(namespace: string, name: string): PolicyRule[] | undefined { return this.roles.get(`${namespace}/${name}`); }

  /** the rules a role reference grants, or an error in Kubernetes' words when it names nothing */
  refRules(ref: RoleRef, namespace: string): PolicyRule[] | string {
    if (ref.kind === 'ClusterRole') return this.clusterRoles.get(ref.name) ?? `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`;
    return this.roles.get(`${namespace}/${ref.name}`) ?? `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`;
  }

  /** every rule the user holds in a namespace (cluster role bindings, then the namespace's role bindings) */
  rulesFor(user: User, namespace: string): ResolvedRules {
    const memoKey = `${user.name}\0${user.groups.join('\x01')}\0${namespace}`;
    const hit = this.memo.get(memoKey);
    if (hit) return hit;
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    const reasons: string[] = [];
    const seen = new Set<string>();
    const keys = userKeys(user);
    for (const ns of namespace ? ['', namespace] : ['']) {
      for (const sk of keys) {
        for (const key of this.bySubject.get(sk)?.get(ns) ?? []) {
          if (seen.has(key)) continue;
          seen.add(key);
          const b = this.bindings.get(key)!;
          const got = this.refRules(b.roleRef, ns);
          if (typeof got === 'string') { errors.push(got); continue; }
          // the binding's first subject that is this user, as Kubernetes names it
          const reason = `RBAC: allowed by ${describeGrant(key, b, b.subjects.find(s => keys.includes(subjectKey(s, ns) ?? '')))}`;
          for (const r of got) { rules.push(r); reasons.push(reason); }
        }
      }
    }
    const out = { rules, errors, reasons };
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(memoKey, out);
    return out;
  }
}
