// A container's mounts as the runtime takes them, from its volumeMounts and the pod's prepared
// volumes: the volume's host path (or a prepared subPath in it), read-only when the mount or the
// volume says so (ConfigMap, Secret, downward API and projected volumes always are), and the
// mount propagation in the CRI's values.

import { configError } from '../config-errors.ts';
import type { Container } from '../types.ts';
import type { CriInput, CriMount, CriMountPropagation } from '../../cri/generated/cri-types.ts';
import { mountSubPath, resolveSubPath } from './subpath.ts';

export interface PreparedVolume { hostPath: string; readOnly: boolean }

export function criPropagation(mode: string | undefined): CriMountPropagation {
  switch (mode ?? 'None') {
    case 'None': return 'PROPAGATION_PRIVATE';
    case 'HostToContainer': return 'PROPAGATION_HOST_TO_CONTAINER';
    case 'Bidirectional': return 'PROPAGATION_BIDIRECTIONAL';
    default: throw configError(`invalid MountPropagation mode: ${JSON.stringify(mode)}`);
  }
}

export async function containerMounts(c: Container, volumes: Map<string, PreparedVolume>, envs: Array<{ key: string; value: string }>): Promise<Array<CriInput<CriMount>>> {
  const vars = new Map(envs.map(e => [e.key, e.value]));
  const mounts: Array<CriInput<CriMount>> = [];
  for (const m of c.volumeMounts ?? []) {
    const v = volumes.get(m.name);
    if (!v) throw configError(`cannot find volume ${JSON.stringify(m.name)} to mount into container ${JSON.stringify(c.name)}`);
    const sub = mountSubPath(m, vars);
    const hostPath = sub ? await resolveSubPath(v.hostPath, sub, m.name, c.name) : v.hostPath;
    mounts.push({ containerPath: m.mountPath, hostPath, readonly: !!m.readOnly || v.readOnly, propagation: criPropagation(m.mountPropagation) });
  }
  return mounts;
}
