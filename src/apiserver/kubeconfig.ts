// kubeconfig files that kubectl and client libraries use as they are: the CA and the client
// credentials embedded as base64 *-data fields, so the file stands alone.

import { writeFileAtomic } from '../pki/atomic-write.ts';

export interface KubeconfigParams {
  /** https://host:port */
  server: string;
  caCertPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  clusterName?: string;
  userName?: string;
  contextName?: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

// Written as YAML without the YAML library: the file has one fixed shape, and every start of a
// server writes its kubeconfigs, so the library would otherwise stay loaded for the process's
// life. Values are JSON strings, which are YAML double-quoted scalars with the same meaning.
export function kubeconfigYaml(p: KubeconfigParams): string {
  const cluster = p.clusterName ?? 'orch';
  const user = p.userName ?? 'admin';
  const context = p.contextName ?? 'orch';
  const q = (s: string) => JSON.stringify(s);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${q(cluster)}`,
    '    cluster:',
    `      server: ${q(p.server)}`,
    `      certificate-authority-data: ${q(b64(p.caCertPem))}`,
    'users:',
    `  - name: ${q(user)}`,
    '    user:',
    `      client-certificate-data: ${q(b64(p.clientCertPem))}`,
    `      client-key-data: ${q(b64(p.clientKeyPem))}`,
    'contexts:',
    `  - name: ${q(context)}`,
    '    context:',
    `      cluster: ${q(cluster)}`,
    `      user: ${q(user)}`,
    `current-context: ${q(context)}`,
    'preferences: {}',
    '',
  ].join('\n');
}

/** writes the file in one step, readable only by its owner (it holds a private key) */
export async function writeKubeconfig(path: string, p: KubeconfigParams): Promise<void> {
  await writeFileAtomic(path, kubeconfigYaml(p), 0o600);
}
