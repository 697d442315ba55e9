// NodeRestriction: what the Node authorizer lets nodes do in general, narrowed to each node's
// own objects — its Node (and none of its taints or of the labels it may not set), its Lease in
// kube-node-lease, its CSINode, tokens only for pods bound to it, PVC status only, and pods as
// node-restriction-pods.ts says. Requests from anyone but a node pass untouched.

import { StatusError } from '../../../api/status.ts';
import type { KubeObject } from '../../../api/object.ts';
import { nodeIdentity } from '../../authz/node.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';
import { forbiddenNodeLabels, modifiedLabels } from './node-labels.ts';
import { admitPodByNode, type PodReads } from './node-restriction-pods.ts';

const nodeLeaseNamespace = 'kube-node-lease';

export function nodeRestriction(deps: AdmissionDeps): AdmissionPlugin {
  const podInfo = deps.catalog.lookup('', 'v1', 'pods')!;
  const nodeInfo = deps.catalog.lookup('', 'v1', 'nodes')!;
  // read as Kubernetes reads its informers: the watch cache as it is
  const read = async (info: typeof podInfo, ns: string | undefined, name: string) => {
    try { return await deps.registry.get(info, ns, name, undefined, true); } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  };
  const reads: PodReads = {
    pod: async (ns, name) => await read(podInfo, ns, name) as Awaited<ReturnType<PodReads['pod']>>,
    nodeUid: async name => (await read(nodeInfo, undefined, name))?.metadata.uid,
  };
  return {
    name: 'NodeRestriction',
    async admit(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return;
      if (!node) throw admissionForbidden(a, `could not determine node from user ${JSON.stringify(a.user.name)}`);
      const gr = `${a.resource.resource}.${a.resource.group}`;
      switch (gr) {
        case 'pods.': return admitPodByNode(node, a, reads);
        case 'nodes.': return admitNode(node, a);
        case 'persistentvolumeclaims.':
          if (a.subresource !== 'status') throw admissionForbidden(a, 'may only update PVC status');
          return admitClaimStatus(node, a);
        case 'serviceaccounts.': return admitTokenRequest(node, a, reads);
        case 'leases.coordination.k8s.io': return admitLease(node, a);
        case 'csinodes.storage.k8s.io':
          if ((a.operation === 'CREATE' ? a.object?.metadata?.name : a.name) !== node) throw admissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
          return;
        default: return;
      }
    },
  };
}

function admitNode(node: string, a: AdmissionAttributes): void {
  const name = a.name || (a.operation === 'CREATE' ? a.object?.metadata?.name ?? '' : '');
  if (name !== node) throw admissionForbidden(a, `node ${JSON.stringify(node)} is not allowed to modify node ${JSON.stringify(name)}`);
  if (a.operation === 'CREATE') {
    const bad = forbiddenNodeLabels(modifiedLabels(a.object?.metadata?.labels, undefined));
    if (bad.length) throw admissionForbidden(a, `node ${JSON.stringify(node)} is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE') {
    const spec = (o: KubeObject | undefined) => (o as { spec?: { taints?: unknown[] } } | undefined)?.spec;
    if (JSON.stringify(spec(a.object)?.taints ?? []) !== JSON.stringify(spec(a.oldObject)?.taints ?? [])) {
      throw admissionForbidden(a, `node ${JSON.stringify(node)} is not allowed to modify taints`);
    }
    const bad = forbiddenNodeLabels(modifiedLabels(a.object?.metadata?.labels, a.oldObject?.metadata?.labels));
    // Kubernetes' wording here names no node
    if (bad.length) throw admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

/** a node changes a claim's status capacity and conditions (resizing), nothing else */
function admitClaimStatus(node: string, a: AdmissionAttributes): void {
  if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
  const strip = (o: KubeObject | undefined) => {
    const { metadata, status, ...rest } = (o ?? {}) as KubeObject & { status?: Record<string, unknown> };
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = metadata ?? {};
    const { capacity: _c, conditions: _cd, allocatedResources: _ar, allocatedResourceStatuses: _ars, ...st } = status ?? {};
    return JSON.stringify({ ...rest, metadata: meta, status: st });
  };
  if (strip(a.object) !== strip(a.oldObject)) {
    throw admissionForbidden(a, `node ${JSON.stringify(node)} is not allowed to update fields other than status.quantity and status.conditions`);
  }
}

async function admitTokenRequest(node: string, a: AdmissionAttributes, reads: PodReads): Promise<void> {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  const ref = (a.object as { spec?: { boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } } } | undefined)?.spec?.boundObjectRef;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) throw admissionForbidden(a, 'node requested token not bound to a pod');
  if (!ref.uid) throw admissionForbidden(a, 'node requested token with a pod binding without a uid');
  const pod = await reads.pod(a.namespace, ref.name);
  if (!pod) throw new StatusError(404, 'NotFound', `pods "${ref.name}" not found`, { name: ref.name, kind: 'pods' });
  if (pod.metadata.uid !== ref.uid) {
    throw admissionForbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (pod.spec?.nodeName !== node) throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
}

function admitLease(node: string, a: AdmissionAttributes): void {
  if (a.namespace !== nodeLeaseNamespace) throw admissionForbidden(a, `can only access leases in the ${JSON.stringify(nodeLeaseNamespace)} system namespace`);
  const name = a.operation === 'CREATE' ? a.object?.metadata?.name : a.name;
  if (name !== node) throw admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
}
