// NodeRestriction's rules for pods: a node creates only mirror pods of its own (bound to it,
// owned by its Node as controller, referencing no service account, secret, config map, claim
// or trust bundle), deletes and evicts only pods bound to it, and changes only the status of
// pods bound to it, never their labels.

import { StatusError } from '../../../api/status.ts';
import type { KubeObject } from '../../../api/object.ts';
import type { CoreV1Pod, CoreV1PodSpec } from '../../../schema/generated/types.ts';
import type { AdmissionAttributes } from '../types.ts';
import { admissionForbidden } from '../errors.ts';
import { mirrorPodAnnotation } from './service-account.ts';
import { podReferences } from './pod-references.ts';

type Pod = CoreV1Pod & KubeObject;

export interface PodReads {
  pod(namespace: string, name: string): Promise<Pod | undefined>;
  nodeUid(name: string): Promise<string | undefined>;
}

export async function admitPodByNode(node: string, a: AdmissionAttributes, reads: PodReads): Promise<void> {
  const no = (why: string) => admissionForbidden(a, why);
  switch (a.subresource) {
    case '':
      if (a.operation === 'CREATE') return admitMirrorPod(node, a, a.object as Pod, reads);
      if (a.operation === 'DELETE') {
        const pod = await existing(a, reads, a.name);
        if (pod.spec?.nodeName !== node) throw no(`node ${JSON.stringify(node)} can only delete pods with spec.nodeName set to itself`);
        return;
      }
      throw no(`unexpected operation ${JSON.stringify(a.operation)}, node ${JSON.stringify(node)} can only create and delete mirror pods`);
    case 'status': {
      if (a.operation !== 'UPDATE') throw no(`unexpected operation ${JSON.stringify(a.operation)}`);
      const old = a.oldObject as Pod, now = a.object as Pod;
      if (old.spec?.nodeName !== node) throw no(`node ${JSON.stringify(node)} can only update pod status for pods with spec.nodeName set to itself`);
      if (!sameLabels(old.metadata.labels, now.metadata.labels)) throw no(`node ${JSON.stringify(node)} cannot update labels through pod status`);
      if (JSON.stringify(claimStatuses(old)) !== JSON.stringify(claimStatuses(now))) throw no(`node ${JSON.stringify(node)} cannot update resource claim statues`);
      return;
    }
    case 'eviction': {
      if (a.operation !== 'CREATE') throw no(`unexpected operation ${a.operation}`);
      const name = a.name || a.object?.metadata?.name;
      if (!name) throw no('could not determine pod from request data');
      const pod = await existing(a, reads, name);
      if (pod.spec?.nodeName !== node) throw no(`node ${node} can only evict pods with spec.nodeName set to itself`);
      return;
    }
    default:
      throw no(`unexpected pod subresource ${JSON.stringify(a.subresource)}, only 'status' and 'eviction' are allowed`);
  }
}

async function existing(a: AdmissionAttributes, reads: PodReads, name: string): Promise<Pod> {
  const pod = await reads.pod(a.namespace, name);
  if (!pod) throw new StatusError(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
  return pod;
}

async function admitMirrorPod(node: string, a: AdmissionAttributes, pod: Pod, reads: PodReads): Promise<void> {
  const no = (why: string) => admissionForbidden(a, why);
  const q = JSON.stringify(node);
  if (pod.metadata.annotations?.[mirrorPodAnnotation] === undefined) {
    throw no(`pod does not have ${JSON.stringify(mirrorPodAnnotation)} annotation, node ${q} can only create mirror pods`);
  }
  if (pod.spec?.nodeName !== node) throw no(`node ${q} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) throw no(`node ${q} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) throw no(`node ${q} can only create pods with an owner reference set to itself`);
  if (!owner.controller) throw no(`node ${q} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion) throw no(`node ${q} must not set blockOwnerDeletion on an owner reference`);
  const uid = await reads.nodeUid(node);
  if (uid === undefined) throw new StatusError(404, 'NotFound', `nodes "${node}" not found`, { name: node, kind: 'nodes' });
  if (owner.uid !== uid) throw no(`node ${node} UID mismatch: expected ${owner.uid} got ${uid}`);
  const spec: CoreV1PodSpec = pod.spec ?? { containers: [] };
  if (spec.serviceAccountName) throw no(`node ${q} can not create pods that reference a service account`);
  if (podReferences(spec, 'secret')) throw no(`node ${q} can not create pods that reference secrets`);
  if (podReferences(spec, 'configMap')) throw no(`node ${q} can not create pods that reference configmaps`);
  if (spec.volumes?.some(v => v?.projected?.sources?.some(s => s?.clusterTrustBundle))) throw no(`node ${q} can not create pods that reference clustertrustbundles`);
  if (spec.volumes?.some(v => v?.persistentVolumeClaim)) throw no(`node ${q} can not create pods that reference persistentvolumeclaims`);
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = a ?? {}, y = b ?? {};
  return Object.keys(x).length === Object.keys(y).length && Object.keys(x).every(k => x[k] === y[k]);
}

function claimStatuses(p: Pod): unknown {
  return (p.status?.resourceClaimStatuses ?? []).map(s => [s.name, s.resourceClaimName ?? null]);
}
