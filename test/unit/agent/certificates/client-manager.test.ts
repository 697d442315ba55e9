// When the node renews its client certificate, and which kept certificates it trusts itself to use.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readlink, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rotationDeadline } from '../../../../src/agent/certificates/client-manager.ts';
import { readCurrent, saveCurrent, usableFor } from '../../../../src/agent/certificates/client-credentials.ts';
import { refusal } from '../../../../src/agent/certificates/request-certificate.ts';
import { createCa, issueCert } from '../../../../src/pki/certs.ts';

test('rotation comes between 70 % and 90 % of the certificate\'s life', () => {
  const from = 1_000_000, to = from + 100_000;
  assert.equal(rotationDeadline(from, to, () => 0), from + 70_000);
  assert.equal(rotationDeadline(from, to, () => 1), from + 90_000);
  assert.equal(rotationDeadline(from, to, () => 0.5), from + 80_000);
});

test('kept certificates: saved with a current link, used only for this node and while valid', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'certs-unit-'));
  try {
    const ca = await createCa('ca', 1);
    const pair = await issueCert(ca, { commonName: 'system:node:n1', organizations: ['system:nodes'], days: 1, usage: 'client' });
    const file = await saveCurrent(dir, pair, new Date('2026-11-27T10:00:00Z'));
    assert.equal(await readlink(file), join(dir, 'kubelet-client-20261127-100000.pem'));
    assert.match(await readFile(file, 'utf8'), /-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----/);
    const back = await readCurrent(dir);
    assert.ok(back);
    assert.equal(usableFor(back, 'n1'), true);
    assert.equal(usableFor(back, 'n2'), false, 'another node');
    assert.equal(usableFor(back, 'n1', Date.now() + 3 * 24 * 3600_000), false, 'expired by then');
    const other = await issueCert(ca, { commonName: 'system:node:n1', days: 1, usage: 'client' });
    assert.equal(usableFor({ cert: pair.cert, key: other.key }, 'n1'), false, 'key does not match');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a denied or failed request ends the wait in the kubelet\'s words', () => {
  assert.equal(refusal({ metadata: { name: 'node-csr-x' }, status: { conditions: [{ type: 'Denied', reason: 'KubectlDeny', message: 'no' }] } }), 'certificate signing request node-csr-x is denied, reason: KubectlDeny, message: no');
  assert.equal(refusal({ metadata: { name: 'node-csr-x' }, status: { conditions: [{ type: 'Failed', reason: 'SignerValidationFailure', message: 'bad' }] } }), 'certificate signing request node-csr-x failed, reason: SignerValidationFailure, message: bad');
  assert.equal(refusal({ metadata: { name: 'node-csr-x' }, status: { conditions: [{ type: 'Approved' }] } }), undefined);
});
