// How the API server dials node agents (logs, exec, attach, port-forward, nodes/proxy, metrics):
// with its client certificate (--kubelet-client-certificate), and verifying the agent's serving
// certificate against --kubelet-certificate-authority when one is given, as kube-apiserver does
// (the address dialled must be among the certificate's names). Without it, as kube-apiserver
// without the flag, the agent's certificate is not verified: agents that serve a self-signed one
// still answer. Failures are worded as Go's TLS client words them, which clients print.

import type { PeerCertificate } from 'node:tls';

export interface NodeClientTls {
  cert: string;
  key: string;
  /** PEM of --kubelet-certificate-authority: agents' serving certificates are verified against it */
  ca?: string;
}

export function nodeTlsOptions(tls: NodeClientTls): { cert: string; key: string; ca?: string; rejectUnauthorized: boolean } {
  return tls.ca ? { cert: tls.cert, key: tls.key, ca: tls.ca, rejectUnauthorized: true } : { cert: tls.cert, key: tls.key, rejectUnauthorized: false };
}

const unknownAuthority = new Set(['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_SIGNATURE_FAILURE']);

// the alerts a server may answer a handshake with (by number, as OpenSSL reports them), named as
// Go's crypto/tls names them
const alerts: Record<number, string> = {
  40: 'handshake failure', 42: 'bad certificate', 45: 'expired certificate', 48: 'unknown certificate authority',
  51: 'error decrypting message', 70: 'protocol version not supported', 80: 'internal error',
  116: 'certificate required', 120: 'no application protocol',
};

/** Go's words for a TLS failure dialling `host`, or undefined when it is not one */
export function goTlsError(err: NodeJS.ErrnoException & { cert?: PeerCertificate; host?: string }, host: string): string | undefined {
  const code = err.code ?? '';
  const alert = /SSL alert number (\d+)/.exec(err.message ?? '');
  if (alert && alerts[Number(alert[1])]) return `remote error: tls: ${alerts[Number(alert[1])]}`;
  const prefix = 'tls: failed to verify certificate: x509: ';
  if (unknownAuthority.has(code)) return `${prefix}certificate signed by unknown authority`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `${prefix}certificate has expired or is not yet valid`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const alt = (err.cert?.subjectaltname ?? '').split(', ').filter(Boolean);
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (bare.includes(':') || /^\d+\.\d+\.\d+\.\d+$/.test(bare)) {
      const ips = alt.filter(a => a.startsWith('IP Address:')).map(a => a.slice(11));
      return ips.length ? `${prefix}certificate is valid for ${ips.join(', ')}, not ${bare}` : `${prefix}cannot validate certificate for ${bare} because it doesn't contain any IP SANs`;
    }
    const names = alt.filter(a => a.startsWith('DNS:')).map(a => a.slice(4));
    return `${prefix}certificate is valid for ${names.join(', ')}, not ${bare}`;
  }
  return undefined;
}
