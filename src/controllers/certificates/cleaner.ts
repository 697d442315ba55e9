// kube-controller-manager's csrcleaner: requests do not pile up. A request is deleted an hour
// after it was issued (approved with a certificate), denied or failed, a day after it was made
// when it has no condition at all, and as soon as the certificate it holds has expired (an
// approved request never issued stays). Each request is looked at again when its time
// comes rather than on a fixed poll.

import { X509Certificate } from 'node:crypto';
import type { Logger } from '../../api/log.ts';
import { isNotFound } from '../../client/api-error.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import { requeueDelay } from '../requeue-delay.ts';
import { csrCollection, csrPath, type Csr } from './csr.ts';

const HOUR = 3600_000;
export const decidedLifetimeMs = HOUR;
export const pendingLifetimeMs = 24 * HOUR;

/** when `csr` is due for deletion (ms since the epoch), as the cleaner's rules say */
export function deletionDue(csr: Csr): number {
  const times: number[] = [];
  const conditions = csr.status?.conditions ?? [];
  for (const c of conditions) {
    const counts = c.type === 'Denied' || c.type === 'Failed' || (c.type === 'Approved' && !!csr.status?.certificate);
    if (counts) times.push(Date.parse(c.lastUpdateTime ?? '') + decidedLifetimeMs);
  }
  if (conditions.length === 0) times.push(Date.parse(csr.metadata.creationTimestamp ?? '') + pendingLifetimeMs);
  if (csr.status?.certificate) {
    try {
      times.push(Date.parse(new X509Certificate(Buffer.from(csr.status.certificate, 'base64')).validTo));
    } catch { /* an unreadable certificate is not this rule's business */ }
  }
  const finite = times.filter(Number.isFinite);
  return finite.length ? Math.min(...finite) : Infinity;
}

export function startCleanerController(client: Client, log: Logger, opts: { now?: () => number } = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const informer = createInformer<Csr>(client, csrCollection, { log });

  async function sync(key: string): Promise<SyncResult> {
    const csr = informer.get(key);
    if (!csr) return;
    const left = deletionDue(csr) - now();
    if (left === Infinity) return;
    if (left > 0) return { requeueAfterMs: requeueDelay(left) };
    log.info('cleaning up csr', { csr: csr.metadata.name });
    await client.delete(csrPath(csr.metadata.name!), { preconditions: { uid: csr.metadata.uid } }).catch(err => { if (!isNotFound(err)) throw err; });
  }

  const queue = createWorkQueue(sync, { concurrency: 1, baseDelayMs: 1000, log });
  const consider = (c: Csr) => queue.add(objectKey(c));
  informer.on('add', consider).on('update', (_o, c) => consider(c));
  informer.start();
  return { stop() { informer.stop(); queue.shutdown(); } };
}
