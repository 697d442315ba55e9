// The RBAC authorizer: allows what some rule bound to the user allows, else has no opinion
// (naming bindings whose role is missing, as Kubernetes does in the denial's reason). Its index
// follows the four RBAC resources through the registry's watch (the watch cache).

import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry, Watcher } from '../../registry/registry.ts';
import type { Attributes, Authorizer, Decision } from './attributes.ts';
import { RbacIndex, type RbacKind } from './rbac-index.ts';
import { ruleAllows } from './rules.ts';

export const rbacGroup = 'rbac.authorization.k8s.io';

const kinds: Array<[RbacKind, string]> = [['Role', 'roles'], ['ClusterRole', 'clusterroles'], ['RoleBinding', 'rolebindings'], ['ClusterRoleBinding', 'clusterrolebindings']];

export interface RbacAuthorizer extends Authorizer {
  index: RbacIndex;
  /** resolves once every RBAC resource has been read */
  synced: Promise<void>;
  stop(): void;
}

export function rbacReason(errors: string[]): string {
  if (!errors.length) return '';
  return `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
}

/** the decision on one request: allowed by the first rule that allows it (named in the reason), else no opinion */
export function rbacDecision(index: RbacIndex, a: Attributes): { decision: Decision; reason: string } {
  const { rules, errors, reasons } = index.rulesFor(a.user, a.namespace);
  for (let i = 0; i < rules.length; i++) if (ruleAllows(a, rules[i]!)) return { decision: 'allow', reason: reasons[i]! };
  return { decision: 'no-opinion', reason: rbacReason(errors) };
}

export function createRbacAuthorizer(registry: Registry, catalog: Catalog, log: Logger): RbacAuthorizer {
  const index = new RbacIndex();
  const watchers: Watcher[] = [];
  let stopped = false;
  const follow = (kind: RbacKind, resource: string): Promise<void> => new Promise((resolve, reject) => {
    const info = catalog.lookup(rbacGroup, 'v1', resource);
    if (!info) { resolve(); return; }
    let synced = false;
    let seen: Set<string> | undefined; // keys listed since the last (re)start, until it is synced
    const start = () => registry.watch(info, undefined, {}, {
      event(type, obj) {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        const m = (obj as { metadata: { name?: string; namespace?: string } }).metadata;
        seen?.add(`${kind === 'Role' || kind === 'RoleBinding' ? m.namespace ?? '' : ''}/${m.name}`);
        index.apply(kind, obj as never, type === 'DELETED');
      },
      synced() {
        if (seen) index.retainOnly(kind, seen);
        seen = undefined;
        synced = true;
        resolve();
      },
      end(err) {
        if (stopped) return;
        // the watch cannot go on (compacted history): read everything again
        log.warn('RBAC watch ended, restarting', { resource, err: err?.message });
        setTimeout(() => { seen = new Set(); void start().then(w => watchers.push(w), reject); }, 100);
      },
    });
    start().then(w => { watchers.push(w); if (!synced) resolve(); }, reject);
  });
  const synced = Promise.all(kinds.map(([k, r]) => follow(k, r))).then(() => undefined);
  return {
    index,
    synced,
    authorize: a => rbacDecision(index, a),
    rulesFor(user, namespace) {
      const { rules, errors } = index.rulesFor(user, namespace);
      return {
        resourceRules: rules.filter(r => !r.nonResourceURLs?.length),
        nonResourceRules: rules.filter(r => r.nonResourceURLs?.length),
        incomplete: false,
        evaluationError: errors.length ? errors.join(', ') : undefined,
      };
    },
    stop() { stopped = true; for (const w of watchers) w.cancel(); },
  };
}
