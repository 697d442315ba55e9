// The agent's serving certificate: tlsCertFile/tlsPrivateKeyFile when configured; otherwise a
// self-signed pair kept in <cert-dir> (kubelet.crt/kubelet.key) and made once, as the kubelet
// does when nobody gives it one.

import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../pki/atomic-write.ts';
import { createCa, issueCert, splitHostsAndIps, type CertAndKey } from '../../pki/certs.ts';

export async function servingCert(opts: { certFile?: string; keyFile?: string; certDir: string; nodeName: string; addresses: string[] }): Promise<CertAndKey> {
  if (opts.certFile && opts.keyFile) return { cert: await readFile(opts.certFile, 'utf8'), key: await readFile(opts.keyFile, 'utf8') };
  const certPath = join(opts.certDir, 'kubelet.crt');
  const keyPath = join(opts.certDir, 'kubelet.key');
  try {
    return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8') };
  } catch { /* made below */ }
  const ca = await createCa(`${opts.nodeName}-ca@${Math.floor(Date.now() / 1000)}`, 365);
  const { dnsNames, ips } = splitHostsAndIps([opts.nodeName, 'localhost', ...opts.addresses], ['127.0.0.1']);
  const leaf = await issueCert(ca, { commonName: `${opts.nodeName}@${Math.floor(Date.now() / 1000)}`, days: 365, usage: 'server', dnsNames, ips });
  // the chain lets clients that trust the self-made CA verify the leaf
  const pair = { cert: `${leaf.cert.trimEnd()}\n${ca.cert.trimEnd()}\n`, key: leaf.key };
  await mkdir(opts.certDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(keyPath, pair.key, 0o600);
  await writeFileAtomic(certPath, pair.cert, 0o644);
  return pair;
}
