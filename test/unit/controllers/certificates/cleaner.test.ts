// When the csrcleaner deletes a request.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { deletionDue } from '../../../../src/controllers/certificates/cleaner.ts';
import type { Csr } from '../../../../src/controllers/certificates/csr.ts';
import { createCa, issueCert } from '../../../../src/pki/certs.ts';

const made = '2026-01-01T00:00:00Z';
const t = (iso: string) => Date.parse(iso);
const csr = (status?: Csr['status']): Csr => ({ metadata: { name: 'c', creationTimestamp: made }, spec: { request: '', signerName: 'example.com/x' }, status });

test('pending a day, denied or failed an hour after the decision, an approved one never issued stays', () => {
  assert.equal(deletionDue(csr()), t('2026-01-02T00:00:00Z'));
  assert.equal(deletionDue(csr({ conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: '2026-01-01T00:10:00Z' }] })), t('2026-01-01T01:10:00Z'));
  assert.equal(deletionDue(csr({ conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: '2026-01-01T00:10:00Z' }, { type: 'Failed', status: 'True', lastUpdateTime: '2026-01-01T00:20:00Z' }] })), t('2026-01-01T01:20:00Z'));
  assert.equal(deletionDue(csr({ conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: '2026-01-01T00:10:00Z' }] })), Infinity);
});

test('issued: an hour after approval, or when its certificate expires if sooner', async () => {
  const ca = await createCa('ca', 1);
  const pair = await issueCert(ca, { commonName: 'x', days: 1 / 48, usage: 'client' });
  const certificate = Buffer.from(pair.cert).toString('base64');
  const approved = new Date(Date.now() - 10 * 60_000).toISOString();
  assert.equal(deletionDue(csr({ certificate, conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: approved }] })), Date.parse(new X509Certificate(pair.cert).validTo), 'expired certificate first');
  const long = Buffer.from((await issueCert(ca, { commonName: 'x', days: 1, usage: 'client' })).cert).toString('base64');
  assert.equal(deletionDue(csr({ certificate: long, conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: approved }] })), Date.parse(approved) + 3600_000);
});
