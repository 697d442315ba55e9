// Approval of one node's kubelet-serving requests, for `orch up`. kube-controller-manager's
// approver never approves serving certificates (a node could ask for any name), and kubeadm leaves
// them to a person or a third-party approver; k3s instead signs its nodes' serving certificates
// itself and has kube-apiserver verify them. `orch up` runs one node on its own machine, so it
// approves that node's requests itself, after the checks an approver of serving certificates
// makes (as the community approvers do): asked by the node itself (system:node:<name> in
// system:nodes), for exactly system:node:<name> in system:nodes, within the signer's rules, and
// every DNS name and IP one of the addresses the Node reports. Anything else is left pending for
// a person (`kubectl certificate approve`), never denied.

import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import { createInformer, objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import type { ParsedCsr } from '../../pki/csr.ts';
import { csrCollection, csrPath, requestOf, type Csr } from './csr.ts';
import { undecided } from './approver.ts';
import { kubeletServing, kubeletServingProblem } from './signer-rules.ts';

export interface NodeAddresses { status?: { addresses?: Array<{ type: string; address: string }> } }

export const approvalMessage = 'Auto approving the serving certificate of orch up\'s node after checking its names against the Node\'s addresses.';

/** why the request may not be approved for node `nodeName`, or undefined when it may */
export function servingApprovalProblem(csr: Csr, req: ParsedCsr, nodeName: string, node: NodeAddresses | undefined): string | undefined {
  const self = `system:node:${nodeName}`;
  if (csr.spec.signerName !== kubeletServing) return `not a ${kubeletServing} request`;
  if (csr.spec.username !== self || !(csr.spec.groups ?? []).includes('system:nodes')) return `not asked by ${self} in system:nodes`;
  if (req.commonName !== self) return `subject common name is not ${self}`;
  const signer = kubeletServingProblem(req, csr.spec.usages ?? []);
  if (signer) return signer;
  if (!node) return `node ${nodeName} is not registered`;
  const addresses = node.status?.addresses ?? [];
  const dnsNames = new Set(addresses.filter(a => ['Hostname', 'InternalDNS', 'ExternalDNS'].includes(a.type)).map(a => a.address));
  const ips = new Set(addresses.filter(a => ['InternalIP', 'ExternalIP', 'Hostname'].includes(a.type)).map(a => a.address));
  const strangeDns = req.dnsNames.filter(d => !dnsNames.has(d));
  if (strangeDns.length) return `DNS names not among the node's addresses: ${strangeDns.join(', ')}`;
  const strangeIps = req.ips.filter(ip => !ips.has(ip));
  if (strangeIps.length) return `IP addresses not among the node's addresses: ${strangeIps.join(', ')}`;
  return undefined;
}

export function startNodeServingApprover(client: Client, nodeName: string, log: Logger, opts: { now?: () => Date } = {}): { stop(): void } {
  const now = opts.now ?? (() => new Date());
  const informer = createInformer<Csr>(client, csrCollection, { log, fieldSelector: `spec.signerName=${kubeletServing}` });
  const reported = new Set<string>();

  async function sync(key: string): Promise<SyncResult> {
    const csr = informer.get(key);
    if (!csr || !undecided(csr) || csr.spec.username !== `system:node:${nodeName}`) return;
    const req = await requestOf(csr);
    if ('error' in req) throw new Error(`unable to parse csr ${JSON.stringify(csr.metadata.name)}: ${req.error}`);
    const node = await client.get<NodeAddresses>(`/api/v1/nodes/${encodeURIComponent(nodeName)}`).catch(() => undefined);
    const problem = servingApprovalProblem(csr, req, nodeName, node);
    if (problem) {
      if (!reported.has(key)) log.info('serving certificate request not approved yet', { csr: csr.metadata.name, why: problem });
      reported.add(key);
      // the node registers and reports its addresses a moment after it asks: looked at again
      // for a minute after the request was made
      const age = now().getTime() - Date.parse(csr.metadata.creationTimestamp ?? '');
      return age < 60_000 ? { requeueAfterMs: 500 } : undefined;
    }
    const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: approvalMessage, lastUpdateTime: rfc3339(now()) };
    await client.update(csrPath(csr.metadata.name!, 'approval'), { ...csr, status: { ...(csr.status ?? {}), conditions: [...(csr.status?.conditions ?? []), condition] } });
    log.info('approved the node\'s serving certificate request', { csr: csr.metadata.name });
  }

  const queue = createWorkQueue(sync, { concurrency: 1, baseDelayMs: 500, log });
  const consider = (c: Csr) => { if (undecided(c)) queue.add(objectKey(c)); };
  informer.on('add', consider).on('update', (_o, c) => consider(c));
  informer.start();
  return { stop() { informer.stop(); queue.shutdown(); } };
}
