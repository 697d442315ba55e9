import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateResponse, responseContentType } from '../../../src/codec/negotiate.ts';
import { parseAccept, parseContentType } from '../../../src/codec/media-type.ts';
import { StatusError } from '../../../src/api/status.ts';

const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';

test('Accept parsing orders by q, then as listed', () => {
  const r = parseAccept('application/yaml;q=0.5, application/json, */*;q=0.1');
  assert.deepEqual(r.map(m => `${m.type}/${m.subtype}`), ['application/json', 'application/yaml', '*/*']);
  assert.deepEqual(parseAccept(undefined).map(m => m.type), ['*']);
});

test('JSON by default, YAML when asked, JSON over protobuf when both are offered', () => {
  assert.equal(negotiateResponse(undefined, 'object', { tableSupported: true }).mediaType, 'application/json');
  assert.equal(negotiateResponse('application/yaml', 'object', { tableSupported: true }).mediaType, 'application/yaml');
  assert.equal(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', 'list', { tableSupported: true }).mediaType, 'application/json');
  assert.throws(() => negotiateResponse('application/vnd.kubernetes.protobuf', 'object', { tableSupported: true }), (e: unknown) => e instanceof StatusError && e.code === 406);
});

test('Table views: both group spellings, 406 when only a Table will do and none can be served', () => {
  const t = negotiateResponse(`${table},application/json`, 'list', { tableSupported: true });
  assert.deepEqual(t.view, { as: 'Table', group: 'meta.k8s.io', version: 'v1' });
  assert.equal(responseContentType(t), 'application/json;as=Table;g=meta.k8s.io;v=v1');
  const orch = negotiateResponse('application/json;as=Table;g=meta.orch.io;v=v1', 'object', { tableSupported: true });
  assert.equal(orch.view?.group, 'meta.orch.io');
  assert.throws(() => negotiateResponse(table, 'object', { tableSupported: false }), (e: unknown) => e instanceof StatusError && e.code === 406);
  assert.equal(negotiateResponse(`${table},application/json`, 'object', { tableSupported: false }).view, undefined);
});

test('metadata-only views match the target', () => {
  const one = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
  const many = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
  assert.equal(negotiateResponse(one, 'object', { tableSupported: true }).view?.as, 'PartialObjectMetadata');
  assert.equal(negotiateResponse(many, 'list', { tableSupported: true }).view?.as, 'PartialObjectMetadataList');
  assert.throws(() => negotiateResponse(one, 'list', { tableSupported: true }), StatusError);
  assert.equal(negotiateResponse(`${one}, application/json;q=0.9`, 'list', { tableSupported: true }).view, undefined);
});

test('request body types', () => {
  assert.equal(parseContentType('application/json; charset=utf-8'), 'json');
  assert.equal(parseContentType('application/yaml'), 'yaml');
  assert.equal(parseContentType('application/merge-patch+json'), 'merge-patch');
  assert.throws(() => parseContentType('text/plain'), (e: unknown) => e instanceof StatusError && e.code === 415);
});
