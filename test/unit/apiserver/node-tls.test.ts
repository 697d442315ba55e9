// The API server dialling a node agent: verified against --kubelet-certificate-authority when it
// is given (the address dialled among the certificate's names), not verified otherwise; and TLS
// failures in Go's words, as clients print them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueCert, type CertAndKey } from '../../../src/pki/certs.ts';
import { goTlsError, nodeTlsOptions, type NodeClientTls } from '../../../src/apiserver/node-tls.ts';

async function serve(pair: CertAndKey): Promise<{ url: string; close(): void }> {
  const server = https.createServer({ cert: pair.cert, key: pair.key }, (_req, res) => res.end('ok'));
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`, close: () => { server.closeAllConnections(); server.close(); } };
}

function get(url: string, tls: NodeClientTls): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { ...nodeTlsOptions(tls), agent: false }, res => { let b = ''; res.on('data', d => { b += d; }); res.on('end', () => resolve(b)); });
    req.on('error', err => reject(new Error(goTlsError(err as NodeJS.ErrnoException, '127.0.0.1') ?? `not a TLS failure: ${err.message}`)));
    req.end();
  });
}

test('an agent certified by the kubelet CA is verified; one it did not certify, or for another address, is refused in Go\'s words', async () => {
  const cluster = await createCa('cluster', 1);
  const other = await createCa('node-self-signed', 1);
  const client = await issueCert(cluster, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], days: 1, usage: 'client' });
  const verifying: NodeClientTls = { ...client, ca: cluster.cert };
  const good = await serve(await issueCert(cluster, { commonName: 'system:node:n1', organizations: ['system:nodes'], days: 1, usage: 'server', dnsNames: ['n1'], ips: ['127.0.0.1'] }));
  const selfSigned = await serve(await issueCert(other, { commonName: 'n1', days: 1, usage: 'server', ips: ['127.0.0.1'] }));
  const elsewhere = await serve(await issueCert(cluster, { commonName: 'system:node:n2', organizations: ['system:nodes'], days: 1, usage: 'server', dnsNames: ['n2'], ips: ['127.0.0.2', '10.0.0.2'] }));
  const namesOnly = await serve(await issueCert(cluster, { commonName: 'system:node:n3', organizations: ['system:nodes'], days: 1, usage: 'server', dnsNames: ['n3'] }));
  try {
    assert.equal(await get(good.url, verifying), 'ok');
    await assert.rejects(get(selfSigned.url, verifying), { message: 'tls: failed to verify certificate: x509: certificate signed by unknown authority' });
    await assert.rejects(get(elsewhere.url, verifying), { message: 'tls: failed to verify certificate: x509: certificate is valid for 127.0.0.2, 10.0.0.2, not 127.0.0.1' });
    await assert.rejects(get(namesOnly.url, verifying), { message: 'tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn\'t contain any IP SANs' });
    // without --kubelet-certificate-authority nothing is verified, as kube-apiserver without it
    assert.equal(await get(selfSigned.url, client), 'ok');
    assert.equal(await get(elsewhere.url, client), 'ok');
  } finally {
    for (const s of [good, selfSigned, elsewhere, namesOnly]) s.close();
  }
});

test('alerts and other failures', () => {
  const alert = (n: number) => Object.assign(new Error(`write EPROTO 40CD41318A7F0000:error:0A000438:SSL routines:ssl3_read_bytes:tlsv1 alert:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:918:SSL alert number ${n}`), { code: 'EPROTO' });
  assert.equal(goTlsError(alert(80), '10.0.0.1'), 'remote error: tls: internal error');
  assert.equal(goTlsError(alert(40), '10.0.0.1'), 'remote error: tls: handshake failure');
  assert.equal(goTlsError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), '10.0.0.1'), undefined);
});
