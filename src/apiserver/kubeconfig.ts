// kubeconfig files that kubectl and client libraries use as they are: the CA and the client
// credentials embedded as base64 *-data fields, so the file stands alone.

import { yamlLibrary } from '../api/yaml-library.ts';
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

export function kubeconfigYaml(p: KubeconfigParams): string {
  const cluster = p.clusterName ?? 'orch';
  const user = p.userName ?? 'admin';
  const context = p.contextName ?? 'orch';
  return yamlLibrary().stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: p.server, 'certificate-authority-data': b64(p.caCertPem) } }],
    users: [{ name: user, user: { 'client-certificate-data': b64(p.clientCertPem), 'client-key-data': b64(p.clientKeyPem) } }],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  }, { lineWidth: 0 });
}

/** writes the file in one step, readable only by its owner (it holds a private key) */
export async function writeKubeconfig(path: string, p: KubeconfigParams): Promise<void> {
  await writeFileAtomic(path, kubeconfigYaml(p), 0o600);
}
