// The node's credentials on disk, laid out as the kubelet's certificate stores lay them out: the
// certificate and key together in <cert-dir>/kubelet-client-<time>.pem, kubelet-client-current.pem
// pointing at the newest, and the --kubeconfig naming that file; the serving certificate the same
// way as kubelet-server-*.pem; so a restart finds what it had.

import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile, rename, symlink, unlink, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { yamlLibrary } from '../../api/yaml-library.ts';
import { writeFileAtomic } from '../../pki/atomic-write.ts';
import type { IssuedCertificate } from './request-certificate.ts';

export const currentName = 'kubelet-client-current.pem';

/** the client certificate's store, or the serving certificate's */
export type StoreName = 'kubelet-client' | 'kubelet-server';

/** the pair in the combined file, when it is there and readable */
export async function readCurrent(certDir: string, store: StoreName = 'kubelet-client'): Promise<IssuedCertificate | undefined> {
  let text: string;
  try { text = await readFile(join(certDir, `${store}-current.pem`), 'utf8'); } catch { return undefined; }
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  const key = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----\n?/.exec(text)?.[0];
  return cert && key ? { cert, key } : undefined;
}

/** whether the pair is usable for node `nodeName` now: matching key, its name, not expired */
export function usableFor(pair: IssuedCertificate, nodeName: string, now = Date.now()): boolean {
  try {
    const c = new X509Certificate(pair.cert);
    if (!c.checkPrivateKey(createPrivateKey(pair.key))) return false;
    if (!c.subject.split('\n').includes(`CN=system:node:${nodeName}`)) return false;
    return Date.parse(c.validTo) > now && Date.parse(c.validFrom) <= now + 60_000;
  } catch {
    return false;
  }
}

/** writes a new pair and points <store>-current.pem at it */
export async function saveCurrent(certDir: string, pair: IssuedCertificate, now = new Date(), store: StoreName = 'kubelet-client'): Promise<string> {
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const file = join(certDir, `${store}-${stamp}.pem`);
  await writeFileAtomic(file, `${pair.cert.trimEnd()}\n${pair.key}`, 0o600);
  const current = `${store}-current.pem`;
  const link = join(certDir, `.${current}.new`);
  await unlink(link).catch(() => undefined);
  await symlink(file, link);
  await rename(link, join(certDir, current));
  return join(certDir, current);
}

/** the kubeconfig the agent uses after bootstrapping: the bootstrap one's server and CA, this node's certificate */
export async function writeNodeKubeconfig(path: string, server: string, caPem: string | undefined, certFile: string): Promise<void> {
  const file = resolve(certFile);
  const cluster: Record<string, string> = { server };
  if (caPem) cluster['certificate-authority-data'] = Buffer.from(caPem).toString('base64');
  await writeFileAtomic(path, yamlLibrary().stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster }],
    users: [{ name: 'default-auth', user: { 'client-certificate': file, 'client-key': file } }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
  }, { lineWidth: 0 }), 0o600);
}
