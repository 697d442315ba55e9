import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byAge, nextStatus } from '../../../../src/apiserver/crd/status-decision.ts';
import type { Crd } from '../../../../src/registry/apiextensions/crd-types.ts';

const now = '2026-11-27T15:00:00Z';
const later = '2026-11-27T15:05:00Z';

function crd(name: string, plural: string, created: string): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name, creationTimestamp: created },
    spec: { group: 'example.com', scope: 'Cluster', names: { plural, singular: plural.slice(0, -1), kind: plural[0]!.toUpperCase() + plural.slice(1, -1), listKind: 'L' + plural }, versions: [{ name: 'v1', served: true, storage: true }] },
    status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
  };
}

test('a new CRD gets its names, NamesAccepted and Established in one status, then nothing more', () => {
  const c = crd('widgets.example.com', 'widgets', now);
  const status = nextStatus(c, [c], now)!;
  assert.equal(status.acceptedNames!.plural, 'widgets');
  assert.deepEqual(status.storedVersions, ['v1']);
  assert.deepEqual(status.conditions, [
    { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
    { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
  ]);
  const settled = { ...c, status };
  assert.equal(nextStatus(settled, [settled], later), undefined);
});

test('a conflicting CRD is not established; once the holder is gone it is, with new transition times', () => {
  const a = crd('widgets.example.com', 'widgets', now);
  const holder = { ...a, status: nextStatus(a, [a], now)! };
  const b = crd('widgets.other.example.com', 'widgets', later);
  const refused = { ...b, status: nextStatus(b, [holder, b], later)! };
  // every name of it is taken; the last checked, listKind, is the one reported
  assert.deepEqual(refused.status.conditions!.map(c => [c.type, c.status, c.reason]), [['NamesAccepted', 'False', 'ListKindConflict'], ['Established', 'False', 'NotAccepted']]);
  assert.equal(refused.status.acceptedNames!.plural, '');
  // same decision again: nothing to write
  assert.equal(nextStatus(refused, [holder, refused], later), undefined);
  const freed = nextStatus(refused, [refused], '2026-11-27T15:09:00Z')!;
  assert.deepEqual(freed.conditions!.map(c => [c.type, c.status, c.reason, c.lastTransitionTime]), [
    ['NamesAccepted', 'True', 'NoConflicts', '2026-11-27T15:09:00Z'], ['Established', 'True', 'InitialNamesAccepted', '2026-11-27T15:09:00Z']]);
});

test('the oldest CRD is settled first, names breaking ties', () => {
  const list = [crd('b', 'bs', later), crd('c', 'cs', now), crd('a', 'as', now)];
  assert.deepEqual(list.sort(byAge).map(c => c.metadata.name), ['a', 'c', 'b']);
});
