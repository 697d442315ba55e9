// Pods that outgrow their own local storage limits, evicted whatever the node has left (as the
// kubelet does with LocalStorageCapacityIsolation): an emptyDir past its sizeLimit, a pod's
// ephemeral storage past the sum of its containers' limits, or a container's writable layer and
// logs past its own limit. Pure: the first reason found per pod, in the kubelet's words.

import { canonicalQuantity, parseQuantity } from '../../api/quantity.ts';
import type { Pod } from '../pods/types.ts';
import { formatBytes } from '../node-status/resources.ts';
import type { PodStatsJson } from '../stats/summary-types.ts';

export interface LocalStorageViolation { pod: Pod; message: string }

const limitOf = (c: { resources?: { limits?: Record<string, unknown> | null } | null }) => c.resources?.limits?.['ephemeral-storage'];

export function localStorageViolations(pods: Pod[], stats: (pod: Pod) => PodStatsJson | undefined): LocalStorageViolation[] {
  const out: LocalStorageViolation[] = [];
  for (const pod of pods) {
    const s = stats(pod);
    if (!s) continue;
    const used = new Map((s.volume ?? []).map(v => [v.name, v.usedBytes ?? 0]));
    const volume = (pod.spec.volumes ?? []).find(v => {
      const limit = parseQuantity(v.emptyDir?.sizeLimit);
      return v.emptyDir && limit !== undefined && limit > 0 && (used.get(v.name) ?? 0) > limit;
    });
    if (volume) {
      out.push({ pod, message: `Usage of EmptyDir volume ${JSON.stringify(volume.name)} exceeds the limit ${JSON.stringify(canonicalQuantity(volume.emptyDir!.sizeLimit))}. ` });
      continue;
    }
    const limited = pod.spec.containers.filter(c => limitOf(c) !== undefined);
    if (limited.length) {
      const total = limited.reduce((n, c) => n + (parseQuantity(limitOf(c)) ?? 0), 0);
      if ((s['ephemeral-storage']?.usedBytes ?? 0) > total) {
        out.push({ pod, message: `Pod ephemeral local storage usage exceeds the total limit of containers ${formatBytes(total)}. ` });
        continue;
      }
    }
    for (const cs of s.containers) {
      const c = pod.spec.containers.find(x => x.name === cs.name);
      const limit = c ? parseQuantity(limitOf(c)) : undefined;
      if (!c || !limit) continue;
      if ((cs.logs?.usedBytes ?? 0) + (cs.rootfs?.usedBytes ?? 0) > limit) {
        out.push({ pod, message: `Container ${c.name} exceeded its local ephemeral storage limit ${JSON.stringify(canonicalQuantity(limitOf(c)))}. ` });
        break;
      }
    }
  }
  return out;
}
