import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAccept, parseContentType, parseMediaType, patchBodyKinds } from '../../../src/codec/media-type.ts';
import { StatusError } from '../../../src/api/status.ts';

const names = (h: string | undefined) => parseAccept(h).map(m => `${m.type}/${m.subtype}`);

test('Accept: q-values first, then the more specific range, then the order given', () => {
  assert.deepEqual(names('application/yaml;q=0.5, application/json, */*;q=0.1'), ['application/json', 'application/yaml', '*/*']);
  assert.deepEqual(names('*/*, application/*, application/json'), ['application/json', 'application/*', '*/*']);
  assert.deepEqual(names('application/yaml, application/json'), ['application/yaml', 'application/json']);
  assert.deepEqual(names(undefined), ['*/*']);
  assert.deepEqual(names('  '), ['*/*']);
});

test('Accept: parameters kept (names lower-cased, quotes removed), q taken out, refused and malformed ranges dropped', () => {
  const [r] = parseAccept('Application/JSON; AS=Table; v="v1"; g=meta.k8s.io; charset=utf-8; q=0.9');
  assert.deepEqual(r, { type: 'application', subtype: 'json', params: { as: 'Table', v: 'v1', g: 'meta.k8s.io', charset: 'utf-8' }, q: 0.9 });
  assert.deepEqual(names('application/json;q=0, application/yaml'), ['application/yaml']);
  assert.deepEqual(names('garbage, application/yaml'), ['application/yaml']);
});

test('media types parse or are refused', () => {
  assert.deepEqual(parseMediaType('application/json;charset=utf-8'), { type: 'application', subtype: 'json', params: { charset: 'utf-8' } });
  assert.equal(parseMediaType('json'), undefined);
  assert.equal(parseMediaType('application/'), undefined);
});

test('request bodies: each Content-Type maps to its kind; none means JSON', () => {
  assert.equal(parseContentType(undefined), 'json');
  assert.equal(parseContentType(''), 'json');
  assert.equal(parseContentType('application/json; charset=utf-8'), 'json');
  assert.equal(parseContentType('application/yaml'), 'yaml');
  assert.equal(parseContentType('application/vnd.kubernetes.protobuf'), 'protobuf');
  assert.equal(parseContentType('application/json-patch+json', patchBodyKinds), 'json-patch');
  assert.equal(parseContentType('application/merge-patch+json', patchBodyKinds), 'merge-patch');
  assert.equal(parseContentType('application/strategic-merge-patch+json', patchBodyKinds), 'strategic-merge-patch');
  assert.equal(parseContentType('application/apply-patch+yaml', patchBodyKinds), 'apply-yaml');
  // CBOR only with the gate on
  assert.equal(parseContentType('application/cbor', undefined, { cbor: true }), 'cbor');
  assert.equal(parseContentType('application/apply-patch+cbor', patchBodyKinds, { cbor: true }), 'apply-cbor');
  assert.throws(() => parseContentType('application/cbor'), is415('application/json, application/yaml, application/vnd.kubernetes.protobuf'));
  // a patch type is not an object body
  assert.throws(() => parseContentType('application/merge-patch+json'), is415('application/json, application/yaml, application/vnd.kubernetes.protobuf'));
});

const is415 = (listed: string) => (e: unknown) => e instanceof StatusError && e.code === 415 && e.reason === 'UnsupportedMediaType'
  && e.message === `the body of the request was in an unknown format - accepted media types include: ${listed}`;

test('unknown, CBOR and malformed body types are 415 with Kubernetes wording', () => {
  const objectTypes = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
  for (const ct of ['text/plain', 'application/cbor', 'application/apply-patch+cbor', 'application/x-www-form-urlencoded', 'nonsense']) {
    assert.throws(() => parseContentType(ct), is415(objectTypes), ct);
  }
});

test('a body kind outside the allowed set is 415 listing the allowed types', () => {
  const patches = 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';
  assert.equal(parseContentType('application/merge-patch+json', patchBodyKinds), 'merge-patch');
  assert.throws(() => parseContentType('application/json', patchBodyKinds), is415(patches));
  assert.throws(() => parseContentType(undefined, patchBodyKinds), is415(patches));
  assert.throws(() => parseContentType('application/json-patch+json', ['json', 'yaml']), is415('application/json, application/yaml'));
});
