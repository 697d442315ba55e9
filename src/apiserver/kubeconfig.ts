// kubeconfig files that kubectl and client libraries use as they are.

import { rename, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export interface KubeconfigParams {
  server: string;
  caCertPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  clusterName?: string;
  userName?: string;
  contextName?: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function kubeconfigYaml(p: KubeconfigParams): string {
  const cluster = p.clusterName ?? 'orch';
  const user = p.userName ?? 'admin';
  const context = p.contextName ?? 'orch';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: p.server, 'certificate-authority-data': b64(p.caCertPem) } }],
    users: [{ name: user, user: { 'client-certificate-data': b64(p.clientCertPem), 'client-key-data': b64(p.clientKeyPem) } }],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, p: KubeconfigParams): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, kubeconfigYaml(p), { mode: 0o600 });
  await rename(tmp, path);
}
