// The default cluster roles and bindings, put in place at every start as kube-apiserver's
// rbac/bootstrap-roles hook does: missing ones are created; existing ones marked
// `rbac.authorization.kubernetes.io/autoupdate: "true"` (or unmarked) get back any default rule,
// label or subject they lost, keeping what an administrator added. Aggregated roles' rules are
// the aggregation controller's.

import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import { aggregateLabel, defaultClusterRoleBindings, defaultClusterRoles, type DefaultBinding, type DefaultClusterRole } from './default-policy.ts';
import { rbacGroup } from './rbac.ts';
import { controllerRoles } from './controller-roles.ts';

const autoupdate = 'rbac.authorization.kubernetes.io/autoupdate';

function meta(name: string, labels: Record<string, string> = {}) {
  return { name, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels }, annotations: { [autoupdate]: 'true' } };
}

export function clusterRoleObject(d: DefaultClusterRole): KubeObject {
  const labels = Object.fromEntries((d.aggregateTo ?? []).map(r => [aggregateLabel(r), 'true']));
  const obj: KubeObject = { apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRole', metadata: meta(d.name, labels), rules: d.rules };
  if (d.aggregateFrom) obj.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [d.aggregateFrom]: 'true' } }] };
  return obj;
}

export function clusterRoleBindingObject(d: DefaultBinding): KubeObject {
  return {
    apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRoleBinding', metadata: meta(d.name),
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: d.role },
    subjects: d.subjects.map(s => ({ apiGroup: rbacGroup, ...s })),
  };
}

/** the controllers' roles and their bindings to kube-system service accounts */
function controllerObjects(): KubeObject[] {
  return controllerRoles().flatMap(r => [
    { apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRole', metadata: meta(r.name), rules: r.rules },
    {
      apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRoleBinding', metadata: meta(r.name),
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: r.name },
      subjects: [{ kind: 'ServiceAccount', name: r.serviceAccount, namespace: 'kube-system' }],
    },
  ]);
}

// a rule or subject as its fields, whatever their order: the stored rules come back in the
// schema's field order (verbs first), not in the order the defaults are written in
const json = (x: object) => JSON.stringify(x, Object.keys(x).sort());

/** the current object with what the default lacks put back, or undefined when nothing is missing */
export function repaired(current: KubeObject, want: KubeObject): KubeObject | undefined {
  if (current.metadata.annotations?.[autoupdate] === 'false') return undefined;
  let changed = false;
  const next: KubeObject = { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels } } };
  for (const [k, v] of Object.entries(want.metadata.labels ?? {})) {
    if (next.metadata.labels![k] !== v) { next.metadata.labels![k] = v; changed = true; }
  }
  if (want.kind === 'ClusterRole') {
    if (want.aggregationRule) {
      if (!current.aggregationRule) { next.aggregationRule = want.aggregationRule; changed = true; }
    } else {
      const have = new Set(((current.rules as object[]) ?? []).map(json));
      const missing = (want.rules as object[]).filter(r => !have.has(json(r)));
      if (missing.length) { next.rules = [...((current.rules as unknown[]) ?? []), ...missing]; changed = true; }
    }
  } else {
    const have = new Set(((current.subjects as object[]) ?? []).map(json));
    const missing = (want.subjects as object[]).filter(s => !have.has(json(s)));
    if (missing.length) { next.subjects = [...((current.subjects as unknown[]) ?? []), ...missing]; changed = true; }
  }
  return changed ? next : undefined;
}

export async function reconcileDefaultPolicy(store: Registry, catalog: Catalog): Promise<void> {
  const roles = catalog.lookup(rbacGroup, 'v1', 'clusterroles');
  const bindings = catalog.lookup(rbacGroup, 'v1', 'clusterrolebindings');
  if (!roles || !bindings) return;
  const wanted: Array<[typeof roles, KubeObject]> = [
    ...defaultClusterRoles.map(d => [roles, clusterRoleObject(d)] as [typeof roles, KubeObject]),
    ...defaultClusterRoleBindings.map(d => [bindings, clusterRoleBindingObject(d)] as [typeof roles, KubeObject]),
    ...controllerObjects().map(o => [o.kind === 'ClusterRole' ? roles : bindings, o] as [typeof roles, KubeObject]),
  ];
  // independent objects: written concurrently, so a first start waits for one round of writes
  await Promise.all(wanted.map(async ([info, want]) => {
    const name = want.metadata.name!;
    // servers sharing an etcd start at once: the one whose write lost reads the winner's and looks again
    for (let attempt = 1; ; attempt++) {
      let current: KubeObject | undefined;
      try { current = await store.get(info, undefined, name); } catch (err) { if (!(err instanceof StatusError && err.code === 404)) throw err; }
      const next = current ? repaired(current, want) : want;
      if (!next) return;
      try {
        if (current) await store.update(info, undefined, name, next);
        else await store.create(info, undefined, want);
        return;
      } catch (err) {
        const lost = err instanceof StatusError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists');
        if (!lost || attempt === 5) throw err;
      }
    }
  }));
}
