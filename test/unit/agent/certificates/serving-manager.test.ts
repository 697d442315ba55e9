// The agent's serving certificate through a real API server in this process, with the signing
// controller and orch up's approver for the node: no certificate (handshakes refused) until the
// node's kubelet-serving request is approved; then one the API server verifies against the
// cluster CA; renewed past 70–90 % of its life and when the node's addresses change.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer } from '../../../../src/apiserver/start.ts';
import { goTlsError, nodeTlsOptions, type NodeClientTls } from '../../../../src/apiserver/node-tls.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient } from '../../../../src/client/rest.ts';
import { issueCert } from '../../../../src/pki/certs.ts';
import { startSigningController } from '../../../../src/controllers/certificates/signing-controller.ts';
import { startNodeServingApprover, approvalMessage } from '../../../../src/controllers/certificates/node-serving-approver.ts';
import { startServingCertificates } from '../../../../src/agent/certificates/serving-manager.ts';
import { readCurrent } from '../../../../src/agent/certificates/client-credentials.ts';
import { healthRegistry } from '../../../../src/agent/server/health.ts';
import { startAgentServer } from '../../../../src/agent/server/https-server.ts';
import { eventually } from '../../controllers/in-process-api.ts';

/** the agent's /healthz as the API server reaches it, and the certificate it served */
function dial(port: number, tls: NodeClientTls): Promise<{ body: string; cert: X509Certificate }> {
  return new Promise((resolve, reject) => {
    const req = https.request(`https://127.0.0.1:${port}/healthz`, { ...nodeTlsOptions(tls), agent: false }, res => {
      const cert = new X509Certificate((res.socket as import('node:tls').TLSSocket).getPeerCertificate().raw);
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ body, cert }));
    });
    req.on('error', err => reject(new Error(goTlsError(err as NodeJS.ErrnoException, '127.0.0.1') ?? err.message)));
    req.end();
  });
}

test('the serving certificate: refused until approved, verified once issued, renewed on time and on new addresses', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'certs-serving-'));
  const server = await startServer({ dataDir: join(dir, 'server'), port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const admin = createClient(await loadKubeconfig(server.kubeconfigPath));
  const signer = startSigningController(admin, silentLogger, { ca: server.clusterCA });
  let approver: { stop(): void } | undefined;
  const nodeCert = await issueCert(server.clusterCA, { commonName: 'system:node:n1', organizations: ['system:nodes'], days: 1, usage: 'client' });
  const node = createClient({ server: server.url, ca: Buffer.from(server.clusterCA.cert), cert: Buffer.from(nodeCert.cert), key: Buffer.from(nodeCert.key) });
  let addresses = [{ type: 'InternalIP', address: '127.0.0.1' }, { type: 'Hostname', address: 'n1' }];
  const reportAddresses = async () => {
    const n = await node.get('/api/v1/nodes/n1');
    await node.update('/api/v1/nodes/n1/status', { ...n, status: { ...n.status, addresses } });
  };
  await node.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
  await reportAddresses();
  let offsetMs = 0;
  // the first certificate is renewed at 70 % of its life, later ones at 90 %: a clock moved to 80 % renews once
  let draws = 0;
  const random = () => (draws++ === 0 ? 0 : 1);
  const serving = await startServingCertificates({ client: node, nodeName: 'n1', addresses: () => addresses, certDir: join(dir, 'pki'), log: silentLogger, random, checkMs: 50, now: () => Date.now() + offsetMs });
  const agent = await startAgentServer({ address: '127.0.0.1', port: 0, serving, clientCA: server.clusterCA.cert, health: healthRegistry(), log: silentLogger });
  const apiserver = await issueCert(server.clusterCA, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], days: 1, usage: 'client' });
  const verifying: NodeClientTls = { ...apiserver, ca: server.clusterCA.cert };
  try {
    // asked for as the node, for its names, and left pending by the built-in controllers
    const pending = await eventually(async () => (await admin.list('/apis/certificates.k8s.io/v1/certificatesigningrequests')).items[0], 'the serving CSR');
    assert.equal(pending.spec.signerName, 'kubernetes.io/kubelet-serving');
    assert.equal(pending.spec.username, 'system:node:n1');
    assert.deepEqual(pending.spec.usages, ['digital signature', 'server auth']);
    assert.match(pending.metadata.name, /^csr-/);
    assert.equal(serving.current(), undefined);
    await assert.rejects(dial(agent.port, verifying), { message: 'remote error: tls: internal error' }, 'no certificate yet: the handshake is refused');

    approver = startNodeServingApprover(admin, 'n1', silentLogger);
    await serving.ready;
    const first = await dial(agent.port, verifying);
    assert.equal(first.body, 'ok');
    assert.equal(first.cert.subject, 'O=system:nodes\nCN=system:node:n1');
    assert.equal(first.cert.subjectAltName, 'DNS:n1, IP Address:127.0.0.1');
    assert.ok(first.cert.checkIssued(new X509Certificate(server.clusterCA.cert)));
    const approved = await admin.get(`/apis/certificates.k8s.io/v1/certificatesigningrequests/${pending.metadata.name}`);
    assert.deepEqual(approved.status.conditions.map((c: { type: string; reason: string; message: string }) => [c.type, c.reason, c.message]), [['Approved', 'AutoApproved', approvalMessage]]);
    assert.equal((await readCurrent(join(dir, 'pki'), 'kubelet-server'))?.cert.trim(), serving.current()?.cert.trim(), 'kept in kubelet-server-current.pem');

    // 80 % of its life on, past its deadline: a new one, served to new connections
    const life = Date.parse(first.cert.validTo) - Date.parse(first.cert.validFrom);
    offsetMs = Math.ceil(life * 0.8);
    const renewed = await eventually(async () => { const r = await dial(agent.port, verifying); return r.cert.fingerprint256 !== first.cert.fingerprint256 ? r : undefined; }, 'a renewed certificate');
    assert.equal(renewed.cert.subjectAltName, 'DNS:n1, IP Address:127.0.0.1');

    // a new address: asked for at once, long before the deadline
    addresses = [...addresses, { type: 'ExternalIP', address: '192.0.2.7' }];
    await reportAddresses();
    const moved = await eventually(async () => { const r = await dial(agent.port, verifying); return r.cert.subjectAltName?.includes('192.0.2.7') ? r : undefined; }, 'a certificate naming the new address');
    assert.equal(moved.cert.subjectAltName, 'DNS:n1, IP Address:127.0.0.1, IP Address:192.0.2.7');
    assert.equal((await admin.list('/apis/certificates.k8s.io/v1/certificatesigningrequests')).items.length, 3);
  } finally {
    serving.stop();
    await agent.close();
    approver?.stop();
    signer.stop();
    node.close();
    admin.close();
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
});
