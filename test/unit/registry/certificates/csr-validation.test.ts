// signerName and status.certificate checks in kube-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import { certificateProblem, validateSignerName } from '../../../../src/registry/validation/csr.ts';
import { createCa } from '../../../../src/pki/certs.ts';

const msgs = (name: string) => validateSignerName('spec.signerName', name).map(fieldErrorMessage);

test('signer names: a domain with a dot, a path of subdomains', () => {
  assert.deepEqual(msgs('example.com/signer'), []);
  assert.deepEqual(msgs('kubernetes.io/kube-apiserver-client'), []);
  assert.deepEqual(msgs('example/signer'), ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
  assert.deepEqual(msgs('a/b/c'), ['spec.signerName: Invalid value: "a/b/c": must be a fully qualified domain and path of the form \'example.com/signer-name\'']);
  assert.match(msgs('Example.com/x')[0]!, /^spec\.signerName: Invalid value: "Example\.com": validating label "Example": a lowercase RFC 1123 label must consist of/);
  assert.match(msgs('example.com/x_y')[0]!, /^spec\.signerName: Invalid value: "x_y": validating label "x_y": a lowercase RFC 1123 subdomain must consist of/);
});

test('status.certificate: PEM CERTIFICATE blocks only', async () => {
  const ca = await createCa('c', 1);
  assert.equal(certificateProblem(ca.cert), undefined);
  assert.equal(certificateProblem(ca.cert + ca.cert), undefined);
  assert.equal(certificateProblem('nothing'), 'must contain at least one CERTIFICATE PEM block');
  assert.equal(certificateProblem(ca.key), 'only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"');
  assert.equal(certificateProblem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), 'x509: malformed certificate');
});
