// kube-apiserver's front-proxy flags, taken by `orch server`: the client certificate presented to
// extension API servers and what kube-system/extension-apiserver-authentication tells them to
// trust. Unset: the front-proxy CA and client certificate orch makes beside the cluster CA.

import { resolve } from 'node:path';
import type { Flag } from './command.ts';
import type { FrontProxyFlags } from '../apiserver/aggregator/front-proxy.ts';

export const aggregatorFlags: Record<string, Flag> = {
  'proxy-client-cert-file': { type: 'string', default: '', description: 'client certificate the API server presents to extension API servers (with --proxy-client-key-file; default: <cert-dir>/front-proxy-client.crt, made at start)' },
  'proxy-client-key-file': { type: 'string', default: '', description: 'private key of --proxy-client-cert-file' },
  'requestheader-client-ca-file': { type: 'string', default: '', description: 'CA extension API servers verify the front-proxy client certificate with, published in kube-system/extension-apiserver-authentication (default: <cert-dir>/front-proxy-ca.crt)' },
  'requestheader-allowed-names': { type: 'string', default: 'front-proxy-client', description: 'client certificate common names extension API servers accept identity headers from, comma-separated (published beside the CA)' },
};

export function aggregatorOptions(values: Record<string, string | boolean | undefined>): { frontProxy: FrontProxyFlags } {
  const file = (name: string) => (String(values[name] ?? '') ? resolve(String(values[name])) : undefined);
  const cert = file('proxy-client-cert-file');
  const key = file('proxy-client-key-file');
  if (!!cert !== !!key) throw new Error('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  return {
    frontProxy: {
      clientCertFile: cert, clientKeyFile: key, clientCaFile: file('requestheader-client-ca-file'),
      allowedNames: String(values['requestheader-allowed-names'] ?? 'front-proxy-client').split(',').map(s => s.trim()).filter(Boolean),
    },
  };
}
