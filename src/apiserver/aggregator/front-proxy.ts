// The front-proxy PKI beside the cluster CA, as kubeadm makes it: front-proxy-ca signs the
// front-proxy-client certificate orch presents to extension API servers. Extension servers learn
// whom to trust from kube-system/extension-apiserver-authentication, which orch keeps as
// kube-apiserver does (the requestheader-* keys name the CA, the allowed names and the headers).

import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StatusError } from '../../api/status.ts';
import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import { readPair, savePair } from '../../pki/pair-files.ts';
import { DAY_MS, certProblem, createCa, issueCert, type CertAndKey } from '../../pki/certs.ts';
import { extraHeaderPrefix, groupHeader, userHeader } from './identity.ts';

export const FRONT_PROXY_CLIENT_NAME = 'front-proxy-client';

/** kube-apiserver's --proxy-client-* and --requestheader-* flags */
export interface FrontProxyFlags {
  clientCertFile?: string;
  clientKeyFile?: string;
  clientCaFile?: string;
  allowedNames?: string[];
}

export interface FrontProxyPki {
  /** --requestheader-allowed-names */
  allowedNames: string[];
  /** --requestheader-client-ca-file: the CA extension servers verify the client certificate with */
  caCert: string;
  /** --proxy-client-cert-file / --proxy-client-key-file */
  client: CertAndKey;
}

/**
 * The flags' files where given; otherwise front-proxy-ca.{crt,key} and
 * front-proxy-client.{crt,key} in the certificates directory, made or reissued as needed
 */
export async function ensureFrontProxyPki(dir: string, log?: Logger, flags: FrontProxyFlags = {}): Promise<FrontProxyPki> {
  const allowedNames = flags.allowedNames ?? [FRONT_PROXY_CLIENT_NAME];
  if (flags.clientCertFile && flags.clientKeyFile) {
    const client = { cert: await readFile(flags.clientCertFile, 'utf8'), key: await readFile(flags.clientKeyFile, 'utf8') };
    // without a CA file, whatever CA the generated PKI has is published (it may not have signed this certificate)
    const caCert = flags.clientCaFile ? await readFile(flags.clientCaFile, 'utf8') : (await ensureFrontProxyPki(dir, log)).caCert;
    return { allowedNames, caCert, client };
  }
  const made = await generated(dir, log);
  return { allowedNames, caCert: flags.clientCaFile ? await readFile(flags.clientCaFile, 'utf8') : made.caCert, client: made.client };
}

async function generated(dir: string, log?: Logger): Promise<{ caCert: string; client: CertAndKey }> {
  let ca = await readPair(dir, 'front-proxy-ca');
  const caBad = !ca || !new X509Certificate(ca.cert).ca || certProblem(ca, { caCert: ca.cert, renewBeforeMs: 0 });
  if (!ca || caBad) {
    ca = await createCa('front-proxy-ca', 3650);
    await savePair(dir, 'front-proxy-ca', ca);
    log?.info('created front-proxy CA', { dir });
  }
  let client = await readPair(dir, FRONT_PROXY_CLIENT_NAME);
  const problem = client ? certProblem(client, { caCert: ca.cert, renewBeforeMs: 30 * DAY_MS, commonName: FRONT_PROXY_CLIENT_NAME, organizations: [] }) : 'missing';
  if (!client || problem) {
    client = await issueCert(ca, { commonName: FRONT_PROXY_CLIENT_NAME, days: 365, usage: 'client' });
    await savePair(dir, FRONT_PROXY_CLIENT_NAME, client);
    log?.info('issued certificate', { file: join(dir, `${FRONT_PROXY_CLIENT_NAME}.crt`), reason: problem });
  }
  return { caCert: ca.cert, client };
}

/** the data of kube-system/extension-apiserver-authentication */
export function extensionAuthData(clusterCa: string, frontProxy: Pick<FrontProxyPki, 'caCert' | 'allowedNames'>): Record<string, string> {
  return {
    'client-ca-file': clusterCa,
    'requestheader-allowed-names': JSON.stringify(frontProxy.allowedNames),
    'requestheader-client-ca-file': frontProxy.caCert,
    'requestheader-extra-headers-prefix': JSON.stringify([extraHeaderPrefix]),
    'requestheader-group-headers': JSON.stringify([groupHeader]),
    'requestheader-username-headers': JSON.stringify([userHeader]),
  };
}

export async function ensureExtensionAuthConfigMap(store: Registry, catalog: Catalog, data: Record<string, string>): Promise<void> {
  const cms = catalog.lookup('', 'v1', 'configmaps')!;
  const name = 'extension-apiserver-authentication';
  try {
    const current = await store.get(cms, 'kube-system', name) as { data?: Record<string, string> };
    if (JSON.stringify(current.data) === JSON.stringify(data)) return;
    await store.modify(cms, 'kube-system', name, c => ({ ...c, data }));
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404)) throw err;
    await store.create(cms, 'kube-system', { metadata: { name, namespace: 'kube-system' }, data } as never);
  }
}
