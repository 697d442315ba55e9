// A client certificate named by files in the kubeconfig is read again from time to time, as
// client-go does for certificate files (every 5 minutes): when another process renewed it on
// disk, the client takes the new pair, and its transport closes the connections made with the
// old one. A pair caught half-written (the key not matching the certificate) waits for the next
// round. Certificate and key may share one file (kubelet-client-current.pem).

import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export const certReloadMs = 5 * 60_000;

const certBlock = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/;
const keyBlock = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/;

/** the SHA-256 fingerprint of the first certificate in the PEM, or undefined when there is none */
export function certFingerprint(pem: Buffer | undefined): string | undefined {
  const block = pem && certBlock.exec(pem.toString('latin1'))?.[0];
  try { return block ? new X509Certificate(block).fingerprint256 : undefined; } catch { return undefined; }
}

/** whether the first certificate of `cert` and the first key of `key` belong together */
function matching(cert: Buffer, key: Buffer): boolean {
  const c = certBlock.exec(cert.toString('latin1'))?.[0];
  const k = keyBlock.exec(key.toString('latin1'))?.[0];
  try { return !!c && !!k && new X509Certificate(c).checkPrivateKey(createPrivateKey(k)); } catch { return false; }
}

export function reloadCertFiles(files: { certFile: string; keyFile: string }, current: Buffer, use: (c: { cert: Buffer; key: Buffer }) => void, everyMs = certReloadMs): { stop(): void } {
  let last = certFingerprint(current);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    Promise.all([readFile(files.certFile), readFile(files.keyFile)])
      .then(([cert, key]) => {
        const print = certFingerprint(cert);
        if (!print || print === last || !matching(cert, key)) return;
        last = print;
        use({ cert, key });
      }, () => undefined)
      .finally(() => { busy = false; });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
