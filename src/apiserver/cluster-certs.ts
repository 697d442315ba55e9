// The cluster's TLS material under DATA_DIR/pki: a CA, the API server's serving certificate, an
// admin client certificate (CN kubernetes-admin, O system:masters) and the controller manager's
// and scheduler's own client certificates. Made on first start, reused
// afterwards, and reissued only when a certificate no longer fits (names, signer, expiry).

import { X509Certificate as NodeCert } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../api/log.ts';
import { readPair, savePair } from '../pki/pair-files.ts';
import { DAY_MS, certProblem, createCa, issueCert, splitHostsAndIps } from '../pki/certs.ts';
import type { CertAndKey, CertExpectations, CertRequest } from '../pki/certs.ts';

export type { CertAndKey } from '../pki/certs.ts';

export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  /** what the API server shows node agents when it proxies to them (pods/log) */
  kubeletClientCert: string;
  kubeletClientKey: string;
  /** the controller manager's and the scheduler's own identities (system:kube-controller-manager, system:kube-scheduler) */
  controllerManager: CertAndKey;
  scheduler: CertAndKey;
}

export interface PkiOptions {
  /** extra DNS names for the serving certificate */
  hosts: string[];
  /** extra IP addresses for the serving certificate */
  ips: string[];
  /** where the certificates live (default <data-dir>/pki); servers sharing one etcd share it */
  certDir?: string;
  log?: Logger;
}

export const CA_COMMON_NAME = 'orch-ca';
export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_GROUP = 'system:masters';
const CA_DAYS = 3650;
const LEAF_DAYS = 365;
const RENEW_BEFORE_MS = 30 * DAY_MS;

// names in-cluster and local clients use to reach the API server
const builtinDnsNames = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
// 10.96.0.1 is the default ClusterIP of the `kubernetes` Service
const builtinIps = ['127.0.0.1', '::1', '10.96.0.1'];

function caProblem(ca: CertAndKey): string | undefined {
  try {
    const cert = new NodeCert(ca.cert);
    if (!cert.ca) return 'not a CA certificate';
    return certProblem(ca, { caCert: ca.cert, renewBeforeMs: 0 });
  } catch (err) {
    return `unreadable: ${(err as Error).message}`;
  }
}

/** the pair `name` in dir, reused while it still fits the request, else issued from the CA and saved */
async function ensureLeafIn(dir: string, ca: CertAndKey, name: string, req: CertRequest, log?: Logger): Promise<CertAndKey> {
  const want: CertExpectations = {
    caCert: ca.cert, renewBeforeMs: RENEW_BEFORE_MS,
    commonName: req.commonName, organizations: req.organizations ?? [], dnsNames: req.dnsNames, ips: req.ips,
  };
  const existing = await readPair(dir, name);
  const reason = existing ? certProblem(existing, want) : 'missing';
  if (existing && !reason) return existing;
  const pair = await issueCert(ca, req);
  await savePair(dir, name, pair);
  log?.info('issued certificate', { file: join(dir, `${name}.crt`), reason });
  return pair;
}

export async function ensurePki(dataDir: string, opts: PkiOptions): Promise<Pki> {
  const dir = opts.certDir ?? join(dataDir, 'pki');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const log = opts.log;

  let ca = await readPair(dir, 'ca');
  const problem = ca ? caProblem(ca) : 'missing';
  if (!ca || problem) {
    // a new CA invalidates every certificate it signed; the checks below then reissue ours
    if (ca) log?.warn('replacing cluster CA', { dir, reason: problem });
    ca = await createCa(CA_COMMON_NAME, CA_DAYS);
    await savePair(dir, 'ca', ca);
    log?.info('created cluster CA', { dir });
  } else if (Date.parse(new NodeCert(ca.cert).validTo) - Date.now() < RENEW_BEFORE_MS) {
    log?.warn('cluster CA expires soon; remove the pki directory to start over', { dir, notAfter: new NodeCert(ca.cert).validTo });
  }

  const names = splitHostsAndIps([...builtinDnsNames, hostname(), ...opts.hosts], [...builtinIps, ...opts.ips]);
  const ensureLeaf = (name: string, req: CertRequest) => ensureLeafIn(dir, ca, name, req, log);
  const server = await ensureLeaf('apiserver', { commonName: 'kube-apiserver', days: LEAF_DAYS, usage: 'server', dnsNames: names.dnsNames, ips: names.ips });
  const admin = await ensureLeaf('admin', { commonName: ADMIN_USER, organizations: [ADMIN_GROUP], days: LEAF_DAYS, usage: 'client' });
  const kubeletClient = await ensureLeaf('apiserver-kubelet-client', { commonName: 'kube-apiserver-kubelet-client', organizations: [ADMIN_GROUP], days: LEAF_DAYS, usage: 'client' });
  const controllerManager = await ensureLeaf('controller-manager', { commonName: 'system:kube-controller-manager', days: LEAF_DAYS, usage: 'client' });
  const scheduler = await ensureLeaf('scheduler', { commonName: 'system:kube-scheduler', days: LEAF_DAYS, usage: 'client' });
  return {
    dir, caCert: ca.cert, caKey: ca.key, serverCert: server.cert, serverKey: server.key, adminCert: admin.cert, adminKey: admin.key,
    kubeletClientCert: kubeletClient.cert, kubeletClientKey: kubeletClient.key, controllerManager, scheduler,
  };
}

/** a client certificate signed by the cluster CA (node agents, controllers, extra users) */
export async function issueClientCert(pki: Pick<Pki, 'caCert' | 'caKey'>, opts: { commonName: string; organizations?: string[]; days?: number }): Promise<CertAndKey> {
  return issueCert({ cert: pki.caCert, key: pki.caKey }, { commonName: opts.commonName, organizations: opts.organizations, days: opts.days ?? LEAF_DAYS, usage: 'client' });
}

/**
 * a client certificate of the cluster CA kept in the certificates directory as `name`: a restart
 * reuses it (checked with node:crypto alone) instead of loading the certificate builder again
 */
export function ensureClientCert(pki: Pick<Pki, 'dir' | 'caCert' | 'caKey'>, name: string, opts: { commonName: string; organizations?: string[] }, log?: Logger): Promise<CertAndKey> {
  return ensureLeafIn(pki.dir, { cert: pki.caCert, key: pki.caKey }, name, { commonName: opts.commonName, organizations: opts.organizations, days: LEAF_DAYS, usage: 'client' }, log);
}

/** a serving certificate signed by the cluster CA (for example a node agent's own endpoint) */
export async function issueServingCert(pki: Pick<Pki, 'caCert' | 'caKey'>, opts: { commonName: string; hosts?: string[]; ips?: string[]; days?: number }): Promise<CertAndKey> {
  const names = splitHostsAndIps(opts.hosts ?? [], opts.ips ?? []);
  return issueCert({ cert: pki.caCert, key: pki.caKey }, { commonName: opts.commonName, days: opts.days ?? LEAF_DAYS, usage: 'server', ...names });
}
