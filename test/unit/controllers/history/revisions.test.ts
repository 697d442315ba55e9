import { test } from 'node:test';
import assert from 'node:assert/strict';
import { equalRevision, newRevision, nextRevisionNumber, revisionHash, revisionName, revisionsToPrune, sortRevisions, templateOf, templatePatch, type Revision } from '../../../../src/controllers/history/revisions.ts';

const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 'u1' } };
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'a:1' }] } };

test('a revision: named by the owner and a hash of its data, labelled, owned, holding a patch that replaces the template', () => {
  const r = newRevision({ owner, labels: { app: 'web' }, annotations: { note: 'x' }, data: templatePatch(template), revision: 3 });
  const hash = revisionHash(templatePatch(template));
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(r.metadata.name, `web-${hash}`);
  assert.deepEqual(r.metadata.labels, { app: 'web', 'controller-revision-hash': hash });
  assert.deepEqual(r.metadata.annotations, { note: 'x' });
  assert.equal(r.revision, 3);
  assert.deepEqual(r.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
  assert.equal((r.data as any).spec.template.$patch, 'replace');
  assert.deepEqual(templateOf(r), template);
  // the same data hashes the same whatever the key order; a collision count changes the name
  assert.equal(revisionHash({ spec: { template: { spec: template.spec, metadata: template.metadata, $patch: 'replace' } } }), hash);
  assert.notEqual(revisionHash(templatePatch(template), 1), hash);
  assert.ok(equalRevision(r, newRevision({ owner, labels: {}, data: templatePatch(template), revision: 9, collisionCount: 4 })));
  assert.equal(revisionName('x'.repeat(300), 'h').length, 225);
});

test('history order, next number, and pruning beyond the limit keeping live revisions', () => {
  const rev = (name: string, revision: number) => ({ metadata: { name }, revision }) as Revision;
  const sorted = sortRevisions([rev('c', 3), rev('a', 1), rev('d', 4), rev('b', 2)]);
  assert.deepEqual(sorted.map(r => r.metadata.name), ['a', 'b', 'c', 'd']);
  assert.equal(nextRevisionNumber(sorted), 5);
  assert.equal(nextRevisionNumber([]), 1);
  const live = new Set(['d', 'a']);
  assert.deepEqual(revisionsToPrune(sorted, r => live.has(r.metadata.name), 1).map(r => r.metadata.name), ['b']);
  assert.deepEqual(revisionsToPrune(sorted, r => live.has(r.metadata.name), 0).map(r => r.metadata.name), ['b', 'c']);
  assert.deepEqual(revisionsToPrune(sorted, () => false, 10), []);
});
