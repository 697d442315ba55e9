// A custom resource's Table columns from its CRD's additionalPrinterColumns: Name first, each
// column's first JSONPath result as a cell of its type (null when absent, of another type, or
// when the path errs), dates as ages, Kubernetes' descriptions, and the default Age column.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customResourcePrinter, printerOfCustomResource } from '../../../src/codec/custom-resource-table.ts';
import { toTable } from '../../../src/codec/table.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const now = new Date('2026-01-10T12:00:00Z');
const widget = {
  apiVersion: 'example.com/v1', kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default', creationTimestamp: '2026-01-10T11:57:30Z', resourceVersion: '7', uid: 'u1' },
  spec: { replicas: 3, ratio: 2.5, big: 1234567.5, color: 'blue', paused: true, ports: [{ port: 80 }], labels: { b: '2', a: '1' } },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-08T12:00:00Z' }], note: null },
} as unknown as KubeObject;

const col = (name: string, type: string, jsonPath: string, extra: Record<string, unknown> = {}) => ({ name, type, jsonPath, ...extra });

test('cells take the type of their column', () => {
  const p = customResourcePrinter([
    col('Replicas', 'integer', '.spec.replicas'), col('Ratio', 'number', '.spec.ratio'), col('Paused', 'boolean', '.spec.paused'),
    col('Color', 'string', '.spec.color'), col('Ready', 'string', '.status.conditions[?(@.type=="Ready")].status'),
    col('Since', 'date', '.status.conditions[0].lastTransitionTime'),
  ]);
  assert.deepEqual(p.cells(widget, now), ['w1', 3, 2.5, true, 'blue', 'True', '2d']);
});

test('strings print what client-go prints: numbers as fmt does, maps and lists as JSON with sorted keys, null as <no value>', () => {
  const p = customResourcePrinter([
    col('N', 'string', '.spec.replicas'), col('F', 'string', '.spec.big'), col('B', 'string', '.spec.paused'),
    col('Ports', 'string', '.spec.ports'), col('Labels', 'string', '.spec.labels'), col('Note', 'string', '.status.note'),
  ]);
  assert.deepEqual(p.cells(widget, now), ['w1', '3', '1.2345675e+06', 'true', '[{"port":80}]', '{"a":"1","b":"2"}', '<no value>']);
});

test('absent values, values of another type and paths that err are null cells', () => {
  const p = customResourcePrinter([
    col('Missing', 'string', '.spec.missing'), col('WrongType', 'integer', '.spec.color'), col('NotBool', 'boolean', '.spec.replicas'),
    col('OutOfBounds', 'integer', '.spec.ports[4].port'), col('NullInt', 'integer', '.status.note'), col('BadDate', 'date', '.spec.replicas'),
  ]);
  assert.deepEqual(p.cells(widget, now), ['w1', null, null, null, null, null, null]);
});

test('date columns: the age kubectl shows, <unknown> for an empty time, <invalid> for one that does not parse', () => {
  const obj = { metadata: { name: 'x' }, a: '2026-01-10T11:59:15.5Z', b: '', c: 'yesterday', d: '2026-01-10' } as unknown as KubeObject;
  const p = customResourcePrinter(['a', 'b', 'c', 'd'].map(k => col(k, 'date', `.${k}`)));
  assert.deepEqual(p.cells(obj, now), ['x', '44s', '<unknown>', '<invalid>', '<invalid>']);
});

test('column definitions: Name first, the declared ones with their format, priority and description (or the JSONPath one)', () => {
  const p = customResourcePrinter([col('Replicas', 'integer', '.spec.replicas', { format: 'int32', priority: 1, description: 'how many' }), col('Color', 'string', '.spec.color')]);
  assert.deepEqual(p.columns.map(c => [c.name, c.type, c.format, c.priority]), [['Name', 'string', 'name', 0], ['Replicas', 'integer', 'int32', 1], ['Color', 'string', '', 0]]);
  assert.match(p.columns[0]!.description, /^Name must be unique within a namespace/);
  assert.equal(p.columns[1]!.description, 'how many');
  assert.equal(p.columns[2]!.description, 'Custom resource definition column (in JSONPath format): .spec.color');
});

test('no columns declared: Name and Age from metadata.creationTimestamp, as a CRD serves by default', () => {
  const p = printerOfCustomResource({});
  assert.deepEqual(p.columns.map(c => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Age', 'date', '']]);
  assert.match(p.columns[1]!.description, /^CreationTimestamp is a timestamp representing the server time/);
  assert.deepEqual(p.cells(widget, now), ['w1', '2m30s']);
  const serving = { printerColumns: [col('Color', 'string', '.spec.color')] };
  assert.equal(printerOfCustomResource(serving), printerOfCustomResource(serving), 'made once per served version');
});

test('a column whose JSONPath does not parse ends the columns there', () => {
  const p = customResourcePrinter([col('Color', 'string', '.spec.color'), col('Bad', 'string', '.spec[x'), col('After', 'string', '.spec.color')]);
  assert.deepEqual(p.columns.map(c => c.name), ['Name', 'Color']);
  assert.deepEqual(p.cells(widget, now), ['w1', 'blue']);
});

test('as a Table: rows with the object as metadata, whole, or not at all', () => {
  const p = customResourcePrinter([col('Color', 'string', '.spec.color')]);
  const opts = { now, group: 'meta.k8s.io', version: 'v1' };
  const meta = toTable(p, [widget], { ...opts, includeObject: 'Metadata' });
  assert.deepEqual(meta.rows[0]!.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: widget.metadata });
  assert.equal(meta.metadata.resourceVersion, '7');
  assert.equal(toTable(p, [widget], { ...opts, includeObject: 'Object' }).rows[0]!.object, widget);
  assert.equal('object' in toTable(p, [widget], { ...opts, includeObject: 'None' }).rows[0]!, false);
});
