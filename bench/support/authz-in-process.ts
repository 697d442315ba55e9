// The authorization step alone, in process: what the Node,RBAC chain adds to each request
// (attributes built, node check, RBAC rules looked up by subject and matched, by the authorizer's
// own decision function), with 400 other
// roles and bindings in the index. Free of the machine's load swings that the HTTP figures have.

import { attributesOf } from '../../src/apiserver/authz/attributes.ts';
import { createChain } from '../../src/apiserver/authz/chain.ts';
import { nodeAuthorize } from '../../src/apiserver/authz/node.ts';
import { NodeGraph } from '../../src/apiserver/authz/node-graph.ts';
import { RbacIndex } from '../../src/apiserver/authz/rbac-index.ts';
import { rbacDecision } from '../../src/apiserver/authz/rbac.ts';
import { parseRequestInfo } from '../../src/apiserver/request-info.ts';

export function authorizeNanoseconds(n = 500_000): number {
  const ix = new RbacIndex();
  for (let i = 0; i < 400; i++) {
    ix.apply('Role', { metadata: { name: `r${i}`, namespace: 'dev' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }] }, false);
    ix.apply('RoleBinding', { metadata: { name: `b${i}`, namespace: 'dev' }, roleRef: { kind: 'Role', name: `r${i}` }, subjects: [{ kind: 'User', name: `u${i}` }] }, false);
  }
  ix.apply('Role', { metadata: { name: 'cm', namespace: 'dev' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] }, false);
  ix.apply('RoleBinding', { metadata: { name: 'j', namespace: 'dev' }, roleRef: { kind: 'Role', name: 'cm' }, subjects: [{ kind: 'User', name: 'jane' }] }, false);
  const graph = new NodeGraph();
  const chain = createChain([
    { authorize: a => nodeAuthorize(graph, a) },
    { authorize: a => rbacDecision(ix, a) },
  ]);
  const user = { name: 'jane', groups: ['system:authenticated'] };
  const q = new URLSearchParams();
  const info = parseRequestInfo('GET', '/api/v1/namespaces/dev/configmaps/x', q);
  const t = performance.now();
  for (let i = 0; i < n; i++) if (chain.authorize(attributesOf(user, info, q)).decision !== 'allow') throw new Error('not allowed');
  return (performance.now() - t) * 1e6 / n;
}
