import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideNames, establish, namesSettled } from '../../../../src/registry/apiextensions/naming.ts';
import type { Crd, CrdNames } from '../../../../src/registry/apiextensions/crd-types.ts';

function crd(name: string, names: CrdNames, accepted?: CrdNames, group = 'example.com'): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name },
    spec: { group, scope: 'Namespaced', names, versions: [{ name: 'v1', served: true, storage: true }] },
    status: accepted ? { acceptedNames: accepted } : undefined,
  };
}

const widgets: CrdNames = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] };

test('fresh names are accepted: NoConflicts, and Installing until established', () => {
  const self = crd('widgets.example.com', widgets);
  const out = decideNames(self, [self]);
  assert.deepEqual(out.acceptedNames, { ...widgets, plural: 'widgets' });
  assert.deepEqual(out.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
  assert.deepEqual(out.established, { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' });
  assert.deepEqual(establish(out.namesAccepted, out.established), { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  assert.equal(establish(out.namesAccepted, { type: 'Established', status: 'True' }), undefined);
  assert.equal(establish({ type: 'NamesAccepted', status: 'False' }, undefined), undefined);
});

test('a plural another CRD of the group holds is refused with PluralConflict; the rest is accepted', () => {
  const holder = crd('widgets.example.com', widgets, widgets);
  const other = crd('widgets2.example.com', { plural: 'widgets', kind: 'Gadget', listKind: 'GadgetList', singular: 'gadget' });
  const out = decideNames(other, [holder, other]);
  assert.deepEqual(out.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"widgets" is already in use' });
  assert.equal(out.acceptedNames.plural, '');
  assert.equal(out.acceptedNames.kind, 'Gadget');
  assert.deepEqual(out.established, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
});

test('the same names in another group do not conflict', () => {
  const holder = crd('widgets.example.com', widgets, widgets);
  const other = crd('widgets.other.io', widgets, undefined, 'other.io');
  assert.equal(decideNames(other, [holder, other]).namesAccepted.status, 'True');
});

test('each kind of conflict has its reason; the last one found is reported', () => {
  const holder = crd('widgets.example.com', widgets, widgets);
  const kind = crd('a.example.com', { plural: 'as', singular: 'a', kind: 'Widget', listKind: 'AList' });
  assert.deepEqual(decideNames(kind, [holder, kind]).namesAccepted.reason, 'KindConflict');
  const list = crd('b.example.com', { plural: 'bs', singular: 'b', kind: 'B', listKind: 'WidgetList' });
  assert.deepEqual(decideNames(list, [holder, list]).namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
  const singular = crd('c.example.com', { plural: 'cs', singular: 'wd', kind: 'C', listKind: 'CList' });
  assert.deepEqual(decideNames(singular, [holder, singular]).namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'SingularConflict', message: '"wd" is already in use' });
  // plural and kind both taken: the kind, checked later, is what the condition says
  const both = crd('d.example.com', { plural: 'widgets', singular: 'd', kind: 'Widget', listKind: 'DList' });
  assert.equal(decideNames(both, [holder, both]).namesAccepted.reason, 'KindConflict');
});

test('short names in use are refused together, in Kubernetes aggregate wording', () => {
  const holder = crd('widgets.example.com', widgets, widgets);
  const one = crd('e.example.com', { plural: 'es', singular: 'e', kind: 'E', listKind: 'EList', shortNames: ['wd', 'ee'] });
  assert.deepEqual(decideNames(one, [holder, one]).namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'ShortNamesConflict', message: '"wd" is already in use' });
  const two = crd('f.example.com', { plural: 'fs', singular: 'f', kind: 'F', listKind: 'FList', shortNames: ['wd', 'widget'] });
  const out = decideNames(two, [holder, two]);
  assert.equal(out.namesAccepted.message, '["wd" is already in use, "widget" is already in use]');
  assert.equal(out.acceptedNames.shortNames, undefined);
});

test('a CRD keeps names it already holds, and a short name equal to its own plural is no conflict', () => {
  const self = crd('widgets.example.com', { ...widgets, shortNames: ['wd', 'widgets'] }, widgets);
  const out = decideNames(self, [self]);
  assert.equal(out.namesAccepted.status, 'True');
  assert.deepEqual(out.acceptedNames.shortNames, ['wd', 'widgets']);
});

test('once established, a later refused rename keeps it established and the old names served', () => {
  const holder = crd('gadgets.example.com', { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' }, { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' });
  const self = crd('widgets.example.com', { ...widgets, kind: 'Gadget' }, widgets);
  self.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }];
  const out = decideNames(self, [holder, self]);
  assert.equal(out.namesAccepted.reason, 'KindConflict');
  assert.equal(out.acceptedNames.kind, 'Widget');
  assert.equal(out.established.status, 'True');
});

test('names are settled when the accepted ones are the requested ones', () => {
  assert.equal(namesSettled(crd('w', widgets, widgets)), true);
  assert.equal(namesSettled(crd('w', { ...widgets, categories: ['all'] }, widgets)), false);
  assert.equal(namesSettled(crd('w', widgets)), false);
});
