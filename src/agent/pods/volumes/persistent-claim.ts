// persistentVolumeClaim volumes (and generic ephemeral ones, through the claim made for the pod): the claim is looked up, then the volume it is bound to, checked
// as the kubelet checks them (bound, not being deleted, the volume naming the claim back), and the
// volume's directory on this node is what the containers mount. hostPath volumes are set up by
// their type; `local` volumes must exist, except those orch's local-path provisioner made, whose
// directory this agent creates (DirectoryOrCreate) on first use, as k3s's provisioner's volumes
// are created on the node. Other volume sources are not served by this agent.

import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim, CoreV1Volume } from '../../../schema/generated/types.ts';
import { localPathProvisionerName } from '../../../api/default-storage-class.ts';
import { configError } from '../config-errors.ts';
import { setUpHostPath } from './host-path.ts';

export interface ClaimSource {
  /** the claim, or undefined when it does not exist */
  claim(namespace: string, name: string): Promise<CoreV1PersistentVolumeClaim | undefined>;
  volume(name: string): Promise<CoreV1PersistentVolume | undefined>;
  /**
   * volumes already set up, by pod uid and volume name: a pod's claim is resolved once, as the
   * kubelet resolves it once per pod, not on every sync
   */
  resolved?: Map<string, ClaimedVolume>;
}

/** the most claim volumes remembered; the oldest are forgotten first (and looked up again if needed) */
const maxResolved = 10_000;

/** a claim that cannot be used yet: the whole FailedMount message, in the kubelet's words */
export class ClaimProblem extends Error {}

export interface ClaimedVolume { hostPath: string; readOnly: boolean; kind: 'hostPath' | 'local' }

/** the volume behind the claim, or the kubelet's complaint about it */
export function checkClaim(volumeName: string, namespace: string, claimName: string, pvc: CoreV1PersistentVolumeClaim | undefined, pv: CoreV1PersistentVolume | undefined): CoreV1PersistentVolume {
  const fail = (why: string) => new ClaimProblem(`Unable to attach or mount volumes: unmounted volumes=[${volumeName}], unattached volumes=[${volumeName}]: error processing PVC ${namespace}/${claimName}: ${why}`);
  if (!pvc) throw fail(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (pvc.metadata?.deletionTimestamp) throw fail('PVC is being deleted');
  if (pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName) throw fail('PVC is not bound');
  const name = pvc.spec.volumeName;
  if (!pv) throw fail(`failed to fetch PV ${name} from API server: persistentvolumes "${name}" not found`);
  if (!pv.spec?.claimRef) throw fail(`found PV object ${name} but it has a nil pv.Spec.ClaimRef indicating it is not yet bound to the claim`);
  if (pv.spec.claimRef.uid !== pvc.metadata?.uid) throw fail(`found PV object ${name} but its pv.Spec.ClaimRef.UID (${pv.spec.claimRef.uid ?? ''}) does not point to claim.UID (${pvc.metadata?.uid ?? ''})`);
  return pv;
}

/**
 * v: a persistentVolumeClaim volume, or a generic ephemeral one, whose claim `<pod>-<volume>`
 * must have been made for this pod
 */
export async function setUpClaim(v: CoreV1Volume, pod: { name: string; namespace: string; uid: string }, source: ClaimSource): Promise<ClaimedVolume> {
  const cacheKey = `${pod.uid}/${v.name}`;
  const known = source.resolved?.get(cacheKey);
  if (known) return known;
  const namespace = pod.namespace;
  const claimName = v.ephemeral ? `${pod.name}-${v.name}` : v.persistentVolumeClaim!.claimName ?? '';
  const pvc = await source.claim(namespace, claimName);
  if (v.ephemeral && pvc && !(pvc.metadata?.ownerReferences ?? []).some(r => r.controller && r.uid === pod.uid)) {
    throw new ClaimProblem(`Unable to attach or mount volumes: unmounted volumes=[${v.name}], unattached volumes=[${v.name}]: error processing PVC ${namespace}/${claimName}: PVC ${namespace}/${claimName} was not created for pod ${namespace}/${pod.name} (pod is not owner)`);
  }
  const pv = checkClaim(v.name, namespace, claimName, pvc, pvc?.spec?.volumeName ? await source.volume(pvc.spec.volumeName) : undefined);
  const readOnly = v.persistentVolumeClaim?.readOnly === true;
  const spec = pv.spec!;
  const remember = (c: ClaimedVolume) => {
    const cache = source.resolved;
    if (cache) {
      if (cache.size >= maxResolved) cache.delete(cache.keys().next().value!);
      cache.set(cacheKey, c);
    }
    return c;
  };
  if (spec.hostPath) {
    await setUpHostPath(String(spec.hostPath.path ?? ''), spec.hostPath.type);
    return remember({ hostPath: String(spec.hostPath.path), readOnly, kind: 'hostPath' });
  }
  if (spec.local) {
    const ours = pv.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'] === localPathProvisionerName;
    await setUpHostPath(spec.local.path, ours ? 'DirectoryOrCreate' : 'Directory');
    return remember({ hostPath: spec.local.path, readOnly, kind: 'local' });
  }
  const other = Object.keys(spec).find(k => !['accessModes', 'capacity', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName', 'volumeMode', 'nodeAffinity', 'mountOptions', 'volumeAttributesClassName'].includes(k)) ?? 'unknown';
  throw configError(`volume ${JSON.stringify(v.name)}: persistent volume ${pv.metadata?.name} has a type (${other}) this node agent does not support`);
}
