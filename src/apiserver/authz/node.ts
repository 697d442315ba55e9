// The Node authorizer: a node agent (user system:node:<name> in group system:nodes) reads only
// the secrets, config maps, claims and service account tokens its own pods use, reaches only
// its own Lease, and otherwise gets the system:node role's rules. Other users: no opinion.

import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry, Watcher } from '../../registry/registry.ts';
import type { User } from '../user.ts';
import type { Attributes, Authorizer, Decision } from './attributes.ts';
import { defaultClusterRoles } from './default-policy.ts';
import { NodeGraph, type RefKind } from './node-graph.ts';
import { ruleAllows } from './rules.ts';

export const nodesGroup = 'system:nodes';
const nodePrefix = 'system:node:';
const nodeRules = defaultClusterRoles.find(r => r.name === 'system:node')!.rules;

/** the node a user is, '' for a node user without a name, undefined for anyone else */
export function nodeIdentity(user: User): string | undefined {
  if (!user.name.startsWith(nodePrefix) || !user.groups.includes(nodesGroup)) return undefined;
  return user.name.slice(nodePrefix.length);
}

const no = (reason: string): { decision: Decision; reason: string } => ({ decision: 'no-opinion', reason });
const yes = { decision: 'allow' as Decision, reason: '' };

export function nodeAuthorize(graph: NodeGraph, a: Attributes): { decision: Decision; reason: string } {
  const node = nodeIdentity(a.user);
  if (node === undefined) return no('');
  if (!node) return no(`unknown node for user ${JSON.stringify(a.user.name)}`);
  if (!a.isResourceRequest) return staticRules(a);
  const related = (kind: RefKind) => !!a.name && graph.related(node, kind, a.namespace, a.name);
  const unrelated = no(`no relationship found between node '${node}' and this object`);
  if (a.apiGroup === '') {
    switch (a.resource) {
      case 'secrets': case 'configmaps':
        if (!['get', 'list', 'watch'].includes(a.verb) || a.subresource) return no('can only read resources of this type');
        return related(a.resource) ? yes : unrelated;
      case 'persistentvolumeclaims':
        if (a.subresource === 'status') return ['get', 'update', 'patch'].includes(a.verb) && related('persistentvolumeclaims') ? yes : unrelated;
        if (a.verb !== 'get' || a.subresource) return no('can only get individual resources of this type');
        return related('persistentvolumeclaims') ? yes : unrelated;
      case 'serviceaccounts':
        if (a.subresource !== 'token' || a.verb !== 'create') return no('can only create tokens for individual service accounts');
        return related('serviceaccounts') ? yes : unrelated;
      case 'persistentvolumes':
        // the claim → volume edge is not followed yet: volumes are left to RBAC
        return no('');
    }
  }
  if (a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== 'kube-node-lease') return no('can only access leases in the kube-node-lease namespace');
    if (a.name !== node && a.verb !== 'create') return no('can only access node lease with the same name as the requesting node');
    return yes;
  }
  return staticRules(a);
}

function staticRules(a: Attributes) {
  return nodeRules.some(r => ruleAllows(a, r)) ? yes : no('');
}

export interface NodeAuthorizer extends Authorizer { synced: Promise<void>; stop(): void }

export function createNodeAuthorizer(registry: Registry, catalog: Catalog, log: Logger): NodeAuthorizer {
  const graph = new NodeGraph();
  const pods = catalog.lookup('', 'v1', 'pods')!;
  let watcher: Watcher | undefined;
  let stopped = false;
  let seen: Set<string> | undefined; // pods listed since a restart, until it is synced
  const synced = new Promise<void>((resolve, reject) => {
    const start = (): Promise<void> => registry.watch(pods, undefined, {}, {
      event(type, obj) {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        const m = (obj as { metadata: { name?: string; namespace?: string } }).metadata;
        seen?.add(`${m.namespace}/${m.name}`);
        graph.apply(obj as never, type === 'DELETED');
      },
      synced() { if (seen) graph.retainOnly(seen); seen = undefined; resolve(); },
      end(err) {
        if (stopped) return;
        log.warn('node authorizer watch ended, restarting', { err: err?.message });
        setTimeout(() => { seen = new Set(); void start().catch(reject); }, 100);
      },
    }).then(w => { watcher = w; resolve(); });
    start().catch(reject);
  });
  return {
    synced,
    authorize: a => nodeAuthorize(graph, a),
    // a node's rights depend on its pods, so they are not listed; other users have none here
    rulesFor: user => nodeIdentity(user) === undefined
      ? { resourceRules: [], nonResourceRules: [], incomplete: false }
      : { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' },
    stop() { stopped = true; watcher?.cancel(); },
  };
}
