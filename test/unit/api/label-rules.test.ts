import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelKeyErrors, labelValueErrors, metadataLabelValueErrors, qualifiedNameErrors } from '../../../src/api/label-rules.ts';

const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

test('valid label keys', () => {
  for (const k of ['a', 'A', '1', 'simple', 'now-with-dashes', 'now_with.dots', 'Uppercase_Is_OK_123', 'example.com/name',
    '1.2.3.4/5678', 'k'.repeat(63), `${'a'.repeat(253)}/${'b'.repeat(63)}`]) {
    assert.deepEqual(labelKeyErrors(k), [], k);
  }
});

test('invalid label keys, worded as Kubernetes 1.36 words them', () => {
  assert.deepEqual(labelKeyErrors(''), ['name part must be non-empty', nameRule]);
  assert.deepEqual(labelKeyErrors('-a'), [nameRule]);
  assert.deepEqual(labelKeyErrors('a_'), [nameRule]);
  assert.deepEqual(labelKeyErrors('k'.repeat(64)), ['name part must be no more than 63 bytes']);
  assert.deepEqual(labelKeyErrors('/a'), ['prefix part must be non-empty']);
  assert.deepEqual(labelKeyErrors('Example.com/a'), [
    "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  assert.deepEqual(labelKeyErrors(`${'a'.repeat(254)}/b`), ['prefix part must be no more than 253 bytes']);
  assert.equal(labelKeyErrors('a/b/c').length, 1);
  assert.match(labelKeyErrors('a/b/c')[0]!, /^a valid label key must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
});

test('label values', () => {
  for (const v of ['', 'a', 'MyValue', 'my_value', '12345', 'a.b-c_d', 'v'.repeat(63)]) assert.deepEqual(labelValueErrors(v), [], v);
  const rule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
  assert.deepEqual(labelValueErrors('-a'), [rule]);
  assert.deepEqual(labelValueErrors('a b'), [rule]);
  assert.deepEqual(labelValueErrors('v'.repeat(64)), ['must be no more than 63 bytes']);
  // the limit counts bytes: 32 two-byte characters are 64 bytes
  assert.deepEqual(labelValueErrors('é'.repeat(32)), ['must be no more than 63 bytes', rule]);
});

test('object metadata: lengths in characters, a too-long name part reported alone', () => {
  assert.deepEqual(qualifiedNameErrors('example.com/app'), []);
  assert.deepEqual(qualifiedNameErrors('a'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(qualifiedNameErrors('/x'), ['prefix part must be non-empty']);
  assert.match(qualifiedNameErrors('a/b/c')[0]!, /^a qualified name must consist of alphanumeric characters.* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  assert.match(qualifiedNameErrors('Bad_/x')[0]!, /^prefix part a lowercase RFC 1123 subdomain/);
  assert.deepEqual(metadataLabelValueErrors(''), []);
  assert.deepEqual(metadataLabelValueErrors('v'.repeat(64)), ['must be no more than 63 characters']);
  assert.equal(metadataLabelValueErrors('-x')[0], "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
});
