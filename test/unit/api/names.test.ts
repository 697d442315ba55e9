import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateName, validateName } from '../../../src/api/names.ts';

test('subdomain names', () => {
  assert.deepEqual(validateName('subdomain', 'web-1.example'), []);
  assert.equal(validateName('subdomain', 'Web').length, 1);
  assert.match(validateName('subdomain', 'Web')[0]!, /^a lowercase RFC 1123 subdomain must consist of/);
  assert.deepEqual(validateName('subdomain', 'a'.repeat(254)), ['must be no more than 253 characters']);
});

test('label and DNS-1035 names', () => {
  assert.deepEqual(validateName('label', 'kube-system'), []);
  assert.match(validateName('label', 'a.b')[0]!, /RFC 1123 label/);
  assert.deepEqual(validateName('dns1035', 'svc-1'), []);
  assert.match(validateName('dns1035', '1svc')[0]!, /DNS-1035 label/);
});

test('path segment rules apply to every name', () => {
  assert.deepEqual(validateName('path-segment', 'system:admin'), []);
  assert.deepEqual(validateName('path-segment', 'a/b'), ["may not contain '/'"]);
  assert.deepEqual(validateName('subdomain', '..'), ["may not be '..'"]);
});

test('generateName appends five characters from the Kubernetes alphabet', () => {
  const n = generateName('web-', () => 0);
  assert.equal(n, 'web-bbbbb');
  assert.match(generateName('x-'), /^x-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(generateName('a'.repeat(70), () => 0).length, 63);
});
