import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdStrategy } from '../../../../src/registry/apiextensions/crd-strategy.ts';
import { customScaleOf, withCustomReplicas } from '../../../../src/registry/apiextensions/custom-scale.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

const ctx = { info: {} as never, now: new Date(), random: Math.random };

function crdObject(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1beta1', served: true, storage: false }, { name: 'v1', served: true, storage: true }] },
    status: { acceptedNames: { plural: 'x', kind: 'X' }, conditions: [{ type: 'Established', status: 'True' }] },
  };
}

test('a new CRD gets v1 defaults, no status but its storage version', async () => {
  const obj = crdObject();
  await crdStrategy.prepareForCreate(obj, ctx);
  assert.deepEqual(obj.status, { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
  const spec = obj.spec as { names: Record<string, string>; conversion: unknown };
  assert.equal(spec.names.singular, 'widget');
  assert.equal(spec.names.listKind, 'WidgetList');
  assert.deepEqual(spec.conversion, { strategy: 'None' });
});

test('moving storage to another version adds it to storedVersions', () => {
  const old = crdObject();
  old.status = { storedVersions: ['v1'] };
  const next = structuredClone(old);
  (next.spec as { versions: Array<{ storage: boolean }> }).versions[0]!.storage = true;
  (next.spec as { versions: Array<{ storage: boolean }> }).versions[1]!.storage = false;
  crdStrategy.prepareForUpdate(next, old, ctx);
  assert.deepEqual((next.status as { storedVersions: string[] }).storedVersions, ['v1', 'v1beta1']);
});

test('the first delete adds the cleanup finalizer and Terminating; later ones find it there', () => {
  const obj = crdObject();
  assert.deepEqual(crdStrategy.finalizersOf(obj), ['customresourcecleanup.apiextensions.k8s.io']);
  obj.metadata.deletionTimestamp = '2026-11-27T15:00:00Z';
  crdStrategy.markDeleting(obj);
  assert.deepEqual(obj.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
  assert.deepEqual((obj.status as { conditions: unknown[] }).conditions[1], {
    type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon', lastTransitionTime: '2026-11-27T15:00:00Z',
  });
  // the controller removed it: nothing holds the CRD any more
  obj.metadata.finalizers = [];
  assert.deepEqual(crdStrategy.finalizersOf(obj), []);
});

test('a custom resource scales through the paths its CRD names', () => {
  const paths = { specReplicasPath: '.spec.size.count', statusReplicasPath: '.status.count', labelSelectorPath: '.status.selector' };
  const obj: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: { count: 2 } }, status: { count: 1, selector: 'app=w' } };
  assert.deepEqual(customScaleOf(obj, paths), { spec: 2, status: 1, selector: 'app=w' });
  assert.deepEqual(customScaleOf({ ...obj, spec: {}, status: {} }, paths), { spec: 0, status: 0 });
  const scaled = withCustomReplicas({ ...obj, spec: undefined }, paths, 5);
  assert.deepEqual(scaled.spec, { size: { count: 5 } });
  assert.equal((obj.spec as { size: { count: number } }).size.count, 2);
});
