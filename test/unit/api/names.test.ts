import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dns1035Label, dns1123Label, dns1123Subdomain, generateName, isDns1123Subdomain, regexError, validateName } from '../../../src/api/names.ts';
import { labelKeyErrors, qualifiedNameErrors } from '../../../src/api/label-rules.ts';

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

test('name rules in Kubernetes\' exact wording; the subdomain rule is the one label key prefixes use', () => {
  assert.deepEqual(dns1123Label('a.b'), ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]);
  assert.deepEqual(dns1035Label('1svc'), ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]);
  const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  assert.deepEqual(dns1123Subdomain('Web'), [subdomain]);
  assert.deepEqual(qualifiedNameErrors('Example.com/x'), [`prefix part ${subdomain}`]);
  assert.deepEqual(labelKeyErrors('Example.com/x'), [`prefix part ${subdomain}`]);
  assert.equal(isDns1123Subdomain('a.b-c'), true);
  assert.equal(isDns1123Subdomain('a..b'), false);
  assert.equal(regexError('m', 're'), "m (regex used for validation is 're')");
});
