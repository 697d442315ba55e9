// kube-controller-manager's csrapproving controller: a kubelet client request
// (kube-apiserver-client-kubelet, well formed) is approved when its requester may create
// `certificatesigningrequests/selfnodeclient` (a node renewing its own certificate) or
// `certificatesigningrequests/nodeclient` (a bootstrap token asking for a node's first one), as a
// SubjectAccessReview answers. It never denies: requests it cannot approve wait for a person.

import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { ParsedCsr } from '../../pki/csr.ts';
import { csrCollection, csrPath, requestOf, type Csr } from './csr.ts';
import { kubeApiserverClientKubelet, kubeletClientProblem } from './signer-rules.ts';

export interface Recognizer { subresource: 'selfnodeclient' | 'nodeclient'; message: string }

const selfNodeClient: Recognizer = { subresource: 'selfnodeclient', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' };
const nodeClient: Recognizer = { subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' };

/** whether the approver looks at `csr` at all: no certificate yet, neither approved nor denied */
export function undecided(csr: Csr): boolean {
  const types = (csr.status?.conditions ?? []).map(c => c.type);
  return !csr.status?.certificate && !types.includes('Approved') && !types.includes('Denied');
}

/** the permissions that could approve the request, in the order they are asked */
export function recognizersFor(csr: Csr, req: ParsedCsr): Recognizer[] {
  if (csr.spec.signerName !== kubeApiserverClientKubelet || kubeletClientProblem(req, csr.spec.usages ?? [])) return [];
  return csr.spec.username === req.commonName ? [selfNodeClient, nodeClient] : [nodeClient];
}

/** the request with the approver's Approved condition added */
export function approved(csr: Csr, message: string, now: Date): Csr {
  const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message, lastUpdateTime: rfc3339(now) };
  return { ...csr, status: { ...(csr.status ?? {}), conditions: [...(csr.status?.conditions ?? []), condition] } };
}

export function startApprovingController(client: Client, log: Logger, opts: { now?: () => Date } = {}): { stop(): void } {
  const now = opts.now ?? (() => new Date());
  const informer = createInformer<Csr>(client, csrCollection, { log });

  /** a SubjectAccessReview for the requester, as recorded in the request */
  async function allowed(csr: Csr, subresource: string): Promise<boolean> {
    const review = await client.create<{ status?: { allowed?: boolean } }>('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: {
        user: csr.spec.username, uid: csr.spec.uid, groups: csr.spec.groups, extra: csr.spec.extra,
        resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create', subresource, version: '*' },
      },
    });
    return review.status?.allowed === true;
  }

  async function sync(key: string): Promise<SyncResult> {
    const csr = informer.get(key);
    if (!csr || !undecided(csr)) return;
    const req = await requestOf(csr);
    if ('error' in req) throw new Error(`unable to parse csr ${JSON.stringify(csr.metadata.name)}: ${req.error}`);
    const tried: string[] = [];
    for (const r of recognizersFor(csr, req)) {
      tried.push(r.subresource);
      if (!(await allowed(csr, r.subresource))) continue;
      await client.update(csrPath(csr.metadata.name!, 'approval'), approved(csr, r.message, now()));
      log.info('approved csr', { csr: csr.metadata.name, as: r.subresource });
      return;
    }
    if (tried.length) log.info(`recognized csr ${JSON.stringify(csr.metadata.name)} as [${tried.join(' ')}] but subject access review was not approved`);
  }

  const queue = createWorkQueue(sync, { concurrency: 2, baseDelayMs: 500, log });
  const consider = (c: Csr) => { if (undecided(c)) queue.add(objectKey(c)); };
  informer.on('add', consider).on('update', (_o, c) => consider(c));
  informer.start();
  return { stop() { informer.stop(); queue.shutdown(); } };
}
