import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateResponse, responseContentType, wantsPretty, type NegotiateOptions } from '../../../src/codec/negotiate.ts';
import { StatusError } from '../../../src/api/status.ts';

// a built-in resource: Tables and protobuf
const tables: NegotiateOptions = { tableSupported: true, protobufSupported: true };
const noTables: NegotiateOptions = { tableSupported: false, protobufSupported: true };
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const pom = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const pomList = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

const served = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';
const is406 = (message = served) => (e: unknown) => e instanceof StatusError && e.code === 406 && e.reason === 'NotAcceptable' && e.message === message;

test('JSON by default and for wildcards; YAML when asked', () => {
  assert.deepEqual(negotiateResponse(undefined, 'object', tables), { mediaType: 'application/json' });
  assert.deepEqual(negotiateResponse('', 'list', tables), { mediaType: 'application/json' });
  assert.equal(negotiateResponse('*/*', 'object', tables).mediaType, 'application/json');
  assert.equal(negotiateResponse('application/*', 'object', tables).mediaType, 'application/json');
  assert.equal(negotiateResponse('application/yaml', 'object', tables).mediaType, 'application/yaml');
  assert.equal(negotiateResponse('application/json;charset=utf-8', 'object', tables).mediaType, 'application/json');
});

test('q-values order the candidates', () => {
  assert.equal(negotiateResponse('application/json;q=0.5, application/yaml', 'object', tables).mediaType, 'application/yaml');
  assert.equal(negotiateResponse('application/yaml;q=0.1, application/json;q=0.2', 'object', tables).mediaType, 'application/json');
  assert.equal(negotiateResponse('text/html, application/yaml;q=0.9, */*;q=0.8', 'object', tables).mediaType, 'application/yaml');
});

test('protobuf in either spelling, answered in the one asked for; a Table has no protobuf form', () => {
  assert.deepEqual(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', 'list', tables), { mediaType: 'application/vnd.kubernetes.protobuf' });
  assert.deepEqual(negotiateResponse('application/vnd.orch.protobuf', 'object', tables), { mediaType: 'application/vnd.orch.protobuf' });
  assert.deepEqual(negotiateResponse('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'object', tables).view, { as: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' });
  assert.deepEqual(negotiateResponse('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json', 'list', tables),
    { mediaType: 'application/json', view: { as: 'Table', group: 'meta.k8s.io', version: 'v1' } });
  assert.throws(() => negotiateResponse('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io', 'list', tables), is406());
  assert.throws(() => negotiateResponse('application/cbor', 'object', tables), is406());
  assert.throws(() => negotiateResponse('text/plain', 'object', tables), is406());
});

test('kinds without a protobuf form (custom resources): the next acceptable type, else a 406 that does not offer it', () => {
  const custom: NegotiateOptions = { tableSupported: true };
  assert.deepEqual(negotiateResponse('application/vnd.kubernetes.protobuf, application/json', 'object', custom), { mediaType: 'application/json' });
  assert.throws(() => negotiateResponse('application/vnd.kubernetes.protobuf', 'object', custom), is406('only the following media types are accepted: application/json, application/yaml'));
  assert.throws(() => negotiateResponse('application/vnd.kubernetes.protobuf;stream=watch', 'watch', custom), is406('only the following media types are accepted: application/json;stream=watch'));
});

test('Table views in every spelling, answered with the spelling asked for', () => {
  for (const [g, v] of [['meta.k8s.io', 'v1'], ['meta.k8s.io', 'v1beta1'], ['meta.orch.io', 'v1']]) {
    const n = negotiateResponse(`application/json;as=Table;g=${g};v=${v}`, 'list', tables);
    assert.deepEqual(n, { mediaType: 'application/json', view: { as: 'Table', group: g, version: v } });
    assert.equal(responseContentType(n), `application/json;as=Table;v=${v};g=${g}`);
  }
  assert.equal(negotiateResponse('application/yaml;as=Table;g=meta.k8s.io;v=v1', 'object', tables).mediaType, 'application/yaml');
  assert.equal(negotiateResponse(table, 'watch', tables).view?.as, 'Table');
});

test('a Table-only Accept where tables cannot be served is 406; with a JSON fallback it gets full objects', () => {
  assert.throws(() => negotiateResponse(table, 'object', noTables), is406());
  assert.deepEqual(negotiateResponse(`${table},application/json`, 'object', noTables), { mediaType: 'application/json' });
  assert.equal(responseContentType(negotiateResponse(`${table},application/json`, 'object', noTables)), 'application/json');
});

test('views with unknown kinds, groups or versions, or missing parameters, skip that candidate', () => {
  for (const bad of ['as=Tabel;g=meta.k8s.io;v=v1', 'as=Table;g=example.com;v=v1', 'as=Table;g=meta.k8s.io;v=v2', 'as=Table', 'g=meta.k8s.io;v=v1', 'as=Table;g=meta.k8s.io']) {
    assert.throws(() => negotiateResponse(`application/json;${bad}`, 'list', tables), is406(), bad);
    assert.deepEqual(negotiateResponse(`application/json;${bad}, application/yaml`, 'list', tables), { mediaType: 'application/yaml' }, bad);
  }
});

test('metadata-only views: PartialObjectMetadata for objects and watches, PartialObjectMetadataList for lists', () => {
  assert.deepEqual(negotiateResponse(pom, 'object', tables).view, { as: 'PartialObjectMetadata', group: 'meta.k8s.io', version: 'v1' });
  assert.equal(negotiateResponse(pom, 'watch', tables).view?.as, 'PartialObjectMetadata');
  assert.deepEqual(negotiateResponse(pomList, 'list', tables).view, { as: 'PartialObjectMetadataList', group: 'meta.k8s.io', version: 'v1' });
  assert.equal(negotiateResponse('application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1', 'list', tables).view?.group, 'meta.orch.io');
  // a mismatch rules out that candidate only
  assert.throws(() => negotiateResponse(pom, 'list', tables), is406());
  assert.throws(() => negotiateResponse(pomList, 'object', tables), is406());
  assert.deepEqual(negotiateResponse(`${pom}, application/json;q=0.9`, 'list', tables), { mediaType: 'application/json' });
  assert.equal(negotiateResponse(`${pom}, ${pomList}`, 'list', tables).view?.as, 'PartialObjectMetadataList');
  assert.throws(() => negotiateResponse(pom, 'object', { tableSupported: true, metadataSupported: false, protobufSupported: true }), is406());
  assert.equal(responseContentType(negotiateResponse(pomList, 'list', tables)), 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io');
});

test('watches: JSON and protobuf streams; 406 lists the streaming types', () => {
  const streams = 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch';
  assert.equal(negotiateResponse('application/json;stream=watch', 'watch', tables).mediaType, 'application/json');
  assert.throws(() => negotiateResponse('application/yaml', 'watch', tables), is406(streams));
  assert.equal(negotiateResponse('application/yaml, application/json', 'watch', tables).mediaType, 'application/json');
  assert.throws(() => negotiateResponse('application/json;stream=other', 'watch', tables), is406(streams));
  assert.equal(negotiateResponse('application/vnd.kubernetes.protobuf;stream=watch', 'watch', tables).mediaType, 'application/vnd.kubernetes.protobuf');
});

test('pretty: from the media type, the query, or a person\'s tool', () => {
  assert.equal(negotiateResponse('application/json;pretty=1', 'object', tables).pretty, true);
  assert.equal(negotiateResponse('application/json;pretty=0', 'object', tables).pretty, undefined);
  assert.equal(wantsPretty('true', undefined), true);
  assert.equal(wantsPretty('1', 'kubectl/v1.32'), true);
  assert.equal(wantsPretty('false', 'curl/8.5'), false);
  assert.equal(wantsPretty('yes', undefined), false);
  assert.equal(wantsPretty(null, 'curl/8.5.0'), true);
  assert.equal(wantsPretty('', 'Mozilla/5.0 (X11)'), true);
  assert.equal(wantsPretty(null, 'kubectl/v1.32.0 (linux/amd64)'), false);
});

test('a server-version parameter cannot be honoured', () => {
  assert.throws(() => negotiateResponse('application/json;sv=v1', 'object', tables), is406());
});
