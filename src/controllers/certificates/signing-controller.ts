// kube-controller-manager's csrsigning controller: approved requests for the kubernetes.io
// signers it runs (kube-apiserver-client, kube-apiserver-client-kubelet, kubelet-serving) are
// checked against their signer's rules and signed with the cluster CA it was given
// (--cluster-signing-cert-file/--cluster-signing-key-file), for --cluster-signing-duration or the
// shorter expirationSeconds asked; a request its signer refuses gets a Failed condition.

import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { CertAndKey } from '../../pki/certs.ts';
import { signCsr } from '../../pki/csr.ts';
import { csrCollection, csrPath, hasTrueCondition, isApproved, requestOf, type Csr } from './csr.ts';
import { signerNames, signerProblem, signingDurationMs } from './signer-rules.ts';

export interface SigningOptions {
  ca: CertAndKey;
  /** the longest certificate it issues (default a year, as --cluster-signing-duration) */
  maxDurationMs?: number;
  now?: () => number;
}

/** whether the signer has something to do with `csr` */
export function wantsSigning(csr: Csr): boolean {
  return isApproved(csr) && !hasTrueCondition(csr, 'Failed') && !csr.status?.certificate && signerNames.includes(csr.spec.signerName);
}

export function startSigningController(client: Client, log: Logger, opts: SigningOptions): { stop(): void } {
  const now = opts.now ?? Date.now;
  const maxMs = opts.maxDurationMs ?? 365 * 24 * 3600_000;
  const informer = createInformer<Csr>(client, csrCollection, { log });

  async function sync(key: string): Promise<SyncResult> {
    const csr = informer.get(key);
    if (!csr || !wantsSigning(csr)) return;
    const req = await requestOf(csr);
    if ('error' in req) throw new Error(`unable to parse csr ${JSON.stringify(csr.metadata.name)}: ${req.error}`);
    const problem = signerProblem(csr.spec.signerName, req, csr.spec.usages ?? []);
    const status = { ...(csr.status ?? {}) };
    if (problem) {
      status.conditions = [...(status.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: rfc3339(new Date(now())) }];
      log.info('signer refused csr', { csr: csr.metadata.name, reason: problem });
    } else {
      const pem = Buffer.from(csr.spec.request, 'base64').toString('latin1');
      const cert = await signCsr(opts.ca, pem, csr.spec.usages ?? [], signingDurationMs(maxMs, csr.spec.expirationSeconds), now());
      status.certificate = Buffer.from(cert).toString('base64');
      log.info('signed csr', { csr: csr.metadata.name, signer: csr.spec.signerName });
    }
    await client.update(csrPath(csr.metadata.name!, 'status'), { ...csr, status });
  }

  const queue = createWorkQueue(sync, { concurrency: 2, baseDelayMs: 500, log });
  const consider = (c: Csr) => { if (wantsSigning(c)) queue.add(objectKey(c)); };
  informer.on('add', consider).on('update', (_o, c) => consider(c));
  informer.start();
  return { stop() { informer.stop(); queue.shutdown(); } };
}
