import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toTable } from '../../../src/codec/table.ts';
import { toPartialObjectMetadata, toPartialObjectMetadataList } from '../../../src/codec/partial-metadata.ts';
import { printerFor } from '../../../src/schema/printers/index.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const now = new Date('2026-01-01T01:00:00Z');
const cm = (name: string, rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd', resourceVersion: rv, creationTimestamp: '2026-01-01T00:55:00Z' }, data: { a: '1', b: '2' } });

test('metadata-only views keep only metadata, in the asked-for group version', () => {
  const obj = { ...cm('a', '5'), spec: { x: 1 }, status: { y: 2 } } as KubeObject;
  assert.deepEqual(toPartialObjectMetadata(obj, 'meta.k8s.io/v1'), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  const list = toPartialObjectMetadataList({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 3 }, items: [obj] }, 'meta.orch.io/v1');
  assert.deepEqual(list, {
    kind: 'PartialObjectMetadataList', apiVersion: 'meta.orch.io/v1', metadata: { resourceVersion: '9', continue: 'c', remainingItemCount: 3 },
    items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: obj.metadata }],
  });
});

test('tables: columns, one row per object, list metadata, row objects as asked', () => {
  const items = [cm('a', '5'), cm('b', '6')];
  const t = toTable(printerFor('', 'configmaps'), items, { now, includeObject: 'Metadata', listMeta: { resourceVersion: '7', continue: 'x' }, group: 'meta.k8s.io', version: 'v1' });
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(t.metadata, { resourceVersion: '7', continue: 'x' });
  assert.deepEqual(t.columnDefinitions.map(c => c.name), ['Name', 'Data', 'Age']);
  assert.deepEqual(t.rows.map(r => r.cells), [['a', 2, '5m'], ['b', 2, '5m']]);
  assert.deepEqual(t.rows[0]!.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: items[0]!.metadata });
  // Metadata is the default
  assert.equal((toTable(printerFor('', 'configmaps'), items, { now, group: 'meta.k8s.io', version: 'v1' }).rows[0]!.object as KubeObject).kind, 'PartialObjectMetadata');
  assert.equal(toTable(printerFor('', 'configmaps'), items, { now, includeObject: 'Object', group: 'meta.k8s.io', version: 'v1' }).rows[1]!.object, items[1]);
  assert.equal('object' in toTable(printerFor('', 'configmaps'), items, { now, includeObject: 'None', group: 'meta.k8s.io', version: 'v1' }).rows[0]!, false);
});

test('a single object\'s table carries its resourceVersion; the view group is the one asked for', () => {
  const t = toTable(printerFor('', 'configmaps'), [cm('a', '5')], { now, includeObject: 'Metadata', group: 'meta.orch.io', version: 'v1beta1' });
  assert.deepEqual(t.metadata, { resourceVersion: '5' });
  assert.equal(t.apiVersion, 'meta.orch.io/v1beta1');
  assert.equal((t.rows[0]!.object as KubeObject).apiVersion, 'meta.orch.io/v1beta1');
});

test('finished pods carry the Completed row condition', () => {
  const pod = { metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Succeeded' } } as KubeObject;
  const t = toTable(printerFor('', 'pods'), [pod], { now, includeObject: 'None', group: 'meta.k8s.io', version: 'v1' });
  assert.deepEqual(t.rows[0]!.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
});
