import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DependencyGraph, alternateOwnerIdentity, referenceDiffs, type GraphNode } from '../../../../src/controllers/garbage-collector/graph.ts';
import type { Identity, ObjectMeta, OwnerReference } from '../../../../src/controllers/garbage-collector/identity.ts';

function recorder() {
  const log: string[] = [];
  const graph = new DependencyGraph({
    attemptToDelete: n => log.push(`delete ${n.identity.name}`),
    attemptToOrphan: n => log.push(`orphan ${n.identity.name}`),
    invalidNamespace: (n, uid) => log.push(`invalid ${n.identity.name} -> ${uid}`),
  });
  return { graph, log, take: () => log.splice(0) };
}

const id = (name: string, namespace = 'ns', kind = 'ConfigMap', apiVersion = 'v1'): Identity => ({ apiVersion, kind, name, uid: `uid-${name}`, namespace });
const ref = (name: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid: `uid-${name}`, ...extra });
const meta = (i: Identity, extra: ObjectMeta = {}): ObjectMeta => ({ name: i.name, namespace: i.namespace, uid: i.uid, ...extra });

test('an owner named before it is seen is a virtual node, checked by a lookup, and observed later', () => {
  const { graph, take } = recorder();
  const child = id('child');
  graph.observe('add', child, meta(child, { ownerReferences: [ref('owner')] }));
  assert.deepEqual(take(), ['delete owner']);
  const owner = graph.get('uid-owner')!;
  assert.equal(owner.observed, false);
  assert.deepEqual([...owner.dependents].map(d => d.identity.name), ['child']);
  graph.observe('add', id('owner'), meta(id('owner')));
  assert.equal(graph.get('uid-owner')!.observed, true);
  assert.deepEqual(take(), [], 'the owner as named: nothing to check');
});

test('a deleted owner sends its dependents to be checked; a lookup finding no owner does the same', () => {
  const { graph, take } = recorder();
  graph.observe('add', id('owner'), meta(id('owner')));
  graph.observe('add', id('a'), meta(id('a'), { ownerReferences: [ref('owner')] }));
  graph.observe('add', id('b'), meta(id('b'), { ownerReferences: [ref('owner')] }));
  take();
  graph.observe('delete', id('owner'), meta(id('owner')));
  assert.deepEqual(take().sort(), ['delete a', 'delete b']);
  assert.equal(graph.get('uid-owner'), undefined);
  assert.ok(graph.absentOwners.has(id('owner')));

  graph.observe('add', id('c'), meta(id('c'), { ownerReferences: [ref('ghost')] }));
  assert.deepEqual(take(), ['delete ghost']);
  graph.virtualDelete(id('ghost'));
  assert.deepEqual(take(), ['delete c']);
  assert.equal(graph.get('uid-ghost'), undefined);
});

test('deletion with the orphan finalizer orphans; with foregroundDeletion the dependents and the owner are looked at', () => {
  const { graph, take } = recorder();
  const o = id('owner');
  graph.observe('add', o, meta(o));
  graph.observe('add', id('a'), meta(id('a'), { ownerReferences: [ref('owner', { blockOwnerDeletion: true })] }));
  take();
  const deleting = meta(o, { deletionTimestamp: 't', finalizers: ['orphan'] });
  graph.observe('update', o, deleting, meta(o));
  assert.deepEqual(take(), ['orphan owner']);
  // the same state again is no new transition
  graph.observe('update', o, deleting, deleting);
  assert.deepEqual(take(), []);

  const f = id('fg');
  graph.observe('add', f, meta(f));
  graph.observe('add', id('d'), meta(id('d'), { ownerReferences: [ref('fg', { blockOwnerDeletion: true })] }));
  take();
  graph.observe('update', f, meta(f, { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), meta(f));
  assert.deepEqual(take(), ['delete d', 'delete fg']);
  assert.equal(graph.get('uid-fg')!.deletingDependents, true);
  // a blocking dependent going (or letting go) brings the waiting owner back
  graph.observe('update', id('d'), meta(id('d'), { ownerReferences: [ref('fg')] }), meta(id('d')));
  assert.deepEqual(take(), ['delete fg']);
  graph.observe('delete', id('d'), meta(id('d')));
  assert.deepEqual(take(), ['delete fg']);
});

test('a dependent naming an owner seen in another namespace: the event, then a check (either order of observation)', () => {
  const { graph, take } = recorder();
  const owner = id('owner', 'a');
  graph.observe('add', owner, meta(owner));
  const stray = id('stray', 'b');
  graph.observe('add', stray, meta(stray, { ownerReferences: [ref('owner')] }));
  assert.deepEqual(take(), ['invalid stray -> uid-owner', 'delete stray']);

  // bad child first: the owner is virtual in the child's namespace until it is seen elsewhere
  const r2 = recorder();
  r2.graph.observe('add', stray, meta(stray, { ownerReferences: [ref('owner')] }));
  assert.deepEqual(r2.take(), ['delete owner']);
  r2.graph.observe('add', owner, meta(owner));
  assert.deepEqual(r2.take(), ['invalid stray -> uid-owner', 'delete stray']);
  assert.equal(r2.graph.get('uid-owner')!.identity.namespace, 'a');
});

test('a cluster-scoped dependent naming a namespaced owner gets the event', () => {
  const { graph, take } = recorder();
  const owner = id('owner', 'a');
  graph.observe('add', owner, meta(owner));
  const role = id('role', '', 'ClusterRole', 'rbac.authorization.k8s.io/v1');
  graph.observe('add', role, meta(role, { ownerReferences: [ref('owner')] }));
  assert.deepEqual(take(), ['invalid role -> uid-owner', 'delete role']);
});

test('dependents disagreeing on who a virtual owner is: the next identity is tried after one is found absent', () => {
  const { graph, take } = recorder();
  graph.observe('add', id('x'), meta(id('x'), { ownerReferences: [ref('owner')] }));
  graph.observe('add', id('y'), meta(id('y'), { ownerReferences: [ref('owner', { kind: 'Secret' })] }));
  take();
  const first = graph.get('uid-owner')!.identity;
  assert.equal(first.kind, 'ConfigMap');
  graph.virtualDelete(first);
  // x named the absent one; the node now stands for the Secret y names
  assert.deepEqual(take(), ['delete x', 'delete owner']);
  assert.equal(graph.get('uid-owner')!.identity.kind, 'Secret');
  graph.virtualDelete(graph.get('uid-owner')!.identity);
  // y named the Secret; the node goes back to the ConfigMap x names, until the dependents are gone
  assert.deepEqual(take().sort(), ['delete owner', 'delete y']);
  assert.equal(graph.get('uid-owner')!.identity.kind, 'ConfigMap');
  graph.observe('delete', id('x'), meta(id('x'), { ownerReferences: [ref('owner')] }));
  graph.observe('delete', id('y'), meta(id('y'), { ownerReferences: [ref('owner', { kind: 'Secret' })] }));
  take();
  graph.virtualDelete(graph.get('uid-owner')!.identity);
  assert.equal(graph.get('uid-owner'), undefined);
});

test('alternate identities are tried in a fixed order, so trying them ends', () => {
  const dep = (owners: OwnerReference[]): GraphNode => ({ identity: id('d'), owners, dependents: new Set(), beingDeleted: false, deletingDependents: false, observed: true });
  const absent = { ...id('owner'), kind: 'B' };
  const deps = [dep([ref('owner', { kind: 'A' })]), dep([ref('owner', { kind: 'C' })]), dep([ref('owner', { kind: 'B' })])];
  assert.equal(alternateOwnerIdentity(deps, absent)!.kind, 'C');
  assert.equal(alternateOwnerIdentity(deps, { ...absent, kind: 'C' })!.kind, 'A');
  assert.equal(alternateOwnerIdentity([deps[2]!], absent), undefined);
});

test('reference diffs by uid', () => {
  const d = referenceDiffs([ref('a'), ref('b', { blockOwnerDeletion: true })], [ref('b'), ref('c')]);
  assert.deepEqual(d.added.map(r => r.name), ['c']);
  assert.deepEqual(d.removed.map(r => r.name), ['a']);
  assert.deepEqual(d.changed.map(([x, y]) => [x.blockOwnerDeletion, y.blockOwnerDeletion]), [[true, undefined]]);
});
