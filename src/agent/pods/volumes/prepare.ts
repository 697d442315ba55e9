// Every volume of a pod set up on the host before its containers start, and again on each sync so
// that ConfigMap, Secret, downward API and projected contents follow their sources (written by
// the atomic writer: the mount point never changes, so running containers see the new files;
// Secret, downward API and projected ones on a tmpfs of their own, ConfigMaps on disk).
// Each volume is set up on its own: one that fails is told as a FailedMount event in the
// kubelet's words and, unless it was set up before (then its last files stay), holds the pod's
// new containers in ContainerCreating, while the others are still brought up to date. A volume this agent cannot provide at all (a type it does not
// implement, a projected serviceAccountToken) is CreateContainerConfigError, said by name.

import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { configError, ContainerStartError } from '../config-errors.ts';
import type { PodFacts } from '../env.ts';
import type { ObjectSource } from '../object-source.ts';
import type { Pod } from '../types.ts';
import { parseQuantity } from '../../../api/quantity.ts';
import { writeAtomically } from '../atomic-writer.ts';
import type { PreparedVolume } from './container-mounts.ts';
import { downwardFiles } from './downward-files.ts';
import { setUpEmptyDir, setUpMemoryWrapper } from './empty-dir.ts';
import { setUpHostPath } from './host-path.ts';
import { ClaimProblem, setUpClaim } from './persistent-claim.ts';
import { volumeDir } from './layout.ts';
import { applyFsGroup } from './ownership.ts';
import { objectFiles } from './object-files.ts';
import { projectedFiles, unsupportedSource } from './projected.ts';
import { ensureSharedMount, propagatedVolumes } from './propagation.ts';
import { setUpFailed, VolumeSetupError } from './volume-error.ts';
import type { CoreV1Volume } from '../../../schema/generated/types.ts';

/** a volume set up, whether its directory was made just now, and whether the host owns it (no fsGroup, no shared mount made) */
type Setup = (v: CoreV1Volume) => Promise<PreparedVolume & { fresh?: boolean; hostOwned?: boolean }>;

/** the volume types orch provides, and the one field that names each in a volume */
const supported = ['emptyDir', 'hostPath', 'configMap', 'secret', 'downwardAPI', 'projected', 'persistentVolumeClaim', 'ephemeral'] as const;

/** a ConfigMap, Secret, downward API or projected volume written before: its files stay usable */
async function writtenBefore(rootDir: string, uid: string, v: CoreV1Volume): Promise<PreparedVolume | undefined> {
  const type = (['configMap', 'secret', 'downwardAPI', 'projected'] as const).find(t => v[t] != null);
  if (!type) return undefined;
  const path = volumeDir(rootDir, uid, type, v.name);
  return (await lstat(join(path, '..data')).then(() => true, () => false)) ? { hostPath: path, readOnly: true } : undefined;
}

/**
 * Sets up the pod's volumes and says where each is. A volume never set up that fails holds the
 * pod (VolumeSetupError); one set up before whose update fails (its ConfigMap deleted meanwhile)
 * keeps its last files and is only told to `remountFailed`, as the kubelet's remounts of mounted
 * volumes do not hold a running pod back.
 */
export async function prepareVolumes(pod: Pod, rootDir: string, objects: ObjectSource, facts: PodFacts = { podIPs: [], hostIPs: [] }, remountFailed?: (message: string) => void): Promise<Map<string, PreparedVolume>> {
  const uid = pod.metadata.uid;
  const allocatableMemory = parseQuantity(facts.nodeAllocatable?.memory);
  const setups: Record<(typeof supported)[number], Setup> = {
    async emptyDir(v) {
      const medium = v.emptyDir!.medium ?? '';
      if (medium !== '' && medium !== 'Memory') throw configError(`volume ${JSON.stringify(v.name)}: emptyDir medium ${medium} is not supported by this node agent`);
      const path = volumeDir(rootDir, uid, 'emptyDir', v.name);
      const fresh = !(await stat(path).then(() => true, () => false));
      await setUpEmptyDir(path, pod, v.emptyDir!, allocatableMemory);
      return { hostPath: path, readOnly: false, fresh };
    },
    async hostPath(v) {
      const path = String(v.hostPath!.path ?? '');
      await setUpHostPath(path, v.hostPath!.type);
      return { hostPath: path, readOnly: false, hostOwned: true };
    },
    persistentVolumeClaim: v => claimVolume(v),
    ephemeral: v => claimVolume(v),
    async configMap(v) {
      const s = v.configMap!;
      const path = volumeDir(rootDir, uid, 'configMap', v.name);
      await writeAtomically(path, await objectFiles(objects, pod, { kind: 'configmaps', name: s.name ?? '', items: s.items, optional: s.optional }, s.defaultMode ?? 0o644));
      return { hostPath: path, readOnly: true };
    },
    async secret(v) {
      const s = v.secret!;
      const path = volumeDir(rootDir, uid, 'secret', v.name);
      await setUpMemoryWrapper(path, pod, allocatableMemory);
      await writeAtomically(path, await objectFiles(objects, pod, { kind: 'secrets', name: s.secretName ?? '', items: s.items, optional: s.optional }, s.defaultMode ?? 0o644));
      return { hostPath: path, readOnly: true };
    },
    async downwardAPI(v) {
      const path = volumeDir(rootDir, uid, 'downwardAPI', v.name);
      await setUpMemoryWrapper(path, pod, allocatableMemory);
      await writeAtomically(path, downwardFiles(pod, v.downwardAPI!.items, v.downwardAPI!.defaultMode ?? 0o644, facts));
      return { hostPath: path, readOnly: true };
    },
    async projected(v) {
      const refused = unsupportedSource(v.name, v.projected!);
      if (refused) throw refused;
      const path = volumeDir(rootDir, uid, 'projected', v.name);
      await setUpMemoryWrapper(path, pod, allocatableMemory);
      await writeAtomically(path, await projectedFiles(objects, pod, v.projected!, facts));
      return { hostPath: path, readOnly: true };
    },
  };

  async function claimVolume(v: CoreV1Volume): Promise<PreparedVolume & { hostOwned: boolean }> {
    const claimed = await setUpClaim(v, pod.metadata, objects);
    // a hostPath volume is the host's to own; a local one takes the pod's fsGroup, as the kubelet's local plugin does
    return { hostPath: claimed.hostPath, readOnly: claimed.readOnly, hostOwned: claimed.kind === 'hostPath' };
  }

  const out = new Map<string, PreparedVolume>();
  const failedMounts: string[] = [];
  let refused: ContainerStartError | undefined;
  const propagated = propagatedVolumes(pod);
  for (const v of pod.spec.volumes ?? []) {
    const type = supported.find(t => v[t] != null);
    try {
      if (!type) {
        const other = Object.keys(v).find(k => k !== 'name' && (v as unknown as Record<string, unknown>)[k] != null) ?? 'unknown';
        throw configError(`volume ${JSON.stringify(v.name)} has a type (${other}) this node agent does not support`);
      }
      const { fresh, hostOwned, ...prepared } = await setups[type](v);
      const sc = pod.spec.securityContext;
      // the kubelet's managed volumes take the pod's fsGroup when set up: an emptyDir once, the
      // others after each write; a hostPath is the host's to own
      if (sc?.fsGroup != null && !hostOwned && (type !== 'emptyDir' || fresh)) await applyFsGroup(prepared.hostPath, sc.fsGroup, prepared.readOnly);
      if (propagated.has(v.name) && !hostOwned) await ensureSharedMount(prepared.hostPath);
      out.set(v.name, prepared);
    } catch (err) {
      if (err instanceof ContainerStartError && err.reason === 'CreateContainerConfigError') { refused ??= err; continue; }
      const message = err instanceof ClaimProblem ? err.message : setUpFailed(v.name, (err as Error).message);
      const before = await writtenBefore(rootDir, uid, v);
      if (before) { out.set(v.name, before); remountFailed?.(message); } else failedMounts.push(message);
    }
  }
  if (refused || failedMounts.length) throw new VolumeSetupError(failedMounts, refused);
  return out;
}
