// Rotation through a real API server in this process with the signing and approving
// controllers: a node whose certificate is past 70 % of its life asks for a new one as itself,
// the approver approves it as selfnodeclient, and the same client goes on with the new one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient } from '../../../../src/client/rest.ts';
import { issueCert } from '../../../../src/pki/certs.ts';
import { startSigningController } from '../../../../src/controllers/certificates/signing-controller.ts';
import { startApprovingController } from '../../../../src/controllers/certificates/approver.ts';
import { saveCurrent, readCurrent, writeNodeKubeconfig } from '../../../../src/agent/certificates/client-credentials.ts';
import { startClientCertificates } from '../../../../src/agent/certificates/client-manager.ts';
import { eventually } from '../../controllers/in-process-api.ts';

test('a node renews its client certificate as itself and keeps working with the new one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'certs-rotation-'));
  const server = await startServer({ dataDir: join(dir, 'server'), port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const admin = createClient(await loadKubeconfig(server.kubeconfigPath));
  const signer = startSigningController(admin, silentLogger, { ca: server.clusterCA });
  const approver = startApprovingController(admin, silentLogger);
  try {
    // valid from an hour ago for 72 minutes: past 70 % of its life already; an extra group tells
    // the old certificate from the new one in what the server sees
    const old = await issueCert(server.clusterCA, { commonName: 'system:node:n1', organizations: ['system:nodes', 'before-rotation'], days: 72 / 60 / 24 - 1 / 24, usage: 'client' });
    const certDir = join(dir, 'pki');
    const kubeconfigPath = join(dir, 'node.kubeconfig');
    await writeNodeKubeconfig(kubeconfigPath, server.url, server.clusterCA.cert, await saveCurrent(certDir, old));
    const client = await startClientCertificates({ kubeconfigPath, certDir, nodeName: 'n1', rotate: true, log: silentLogger, random: () => 0 });
    try {
      const oldPrint = new X509Certificate(old.cert).fingerprint256;
      const renewed = await eventually(async () => { const c = await readCurrent(certDir); return c && new X509Certificate(c.cert).fingerprint256 !== oldPrint ? c : undefined; }, 'a new certificate', 15_000);
      const cert = new X509Certificate(renewed.cert);
      assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:n1');
      assert.ok(Date.parse(cert.validTo) - Date.now() > 300 * 24 * 3600_000, `a year, as --cluster-signing-duration: ${cert.validFrom} - ${cert.validTo}`);
      const csrs = (await admin.list('/apis/certificates.k8s.io/v1/certificatesigningrequests')).items as Array<{ spec: { username: string }; status: { conditions: Array<{ message: string }> } }>;
      assert.equal(csrs.length, 1);
      assert.equal(csrs[0]!.spec.username, 'system:node:n1', 'asked for as the node itself');
      assert.equal(csrs[0]!.status.conditions[0]!.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
      // the same client now presents the new certificate
      const review = await eventually(async () => {
        const r = await client.create<{ status: { userInfo: { username: string; groups: string[] } } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
        return r.status.userInfo.username === 'system:node:n1' && !r.status.userInfo.groups.includes('before-rotation') ? r : undefined;
      }, 'the node\'s own identity');
      assert.ok(review);
    } finally {
      client.close();
    }
  } finally {
    signer.stop();
    approver.stop();
    admin.close();
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
});
