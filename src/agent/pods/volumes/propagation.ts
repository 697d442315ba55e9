// Mount propagation needs a shared source: the runtime refuses a Bidirectional mount whose host
// path is not on a shared mount, and a HostToContainer one on a private mount. The kubelet makes
// its whole root directory rshared at start; here each volume under the pod's directory that a
// container mounts with propagation is made a shared mount of its own (bound onto itself when it
// is not a mount point yet), so nothing outside the agent's volumes changes. The pod's teardown
// unmounts it with everything the container propagated into it.

import type { Pod } from '../types.ts';
import { mountAt, runMount } from './host-mounts.ts';

/** the names of the volumes some container of the pod mounts with HostToContainer or Bidirectional */
export function propagatedVolumes(pod: Pod): Set<string> {
  const out = new Set<string>();
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const m of c.volumeMounts ?? []) if (m.mountPropagation === 'HostToContainer' || m.mountPropagation === 'Bidirectional') out.add(m.name);
  }
  return out;
}

export async function ensureSharedMount(path: string): Promise<void> {
  let mount = await mountAt(path);
  if (mount?.shared) return;
  if (!mount) {
    await runMount('mount', ['--bind', path, path]);
    mount = await mountAt(path);
  }
  await runMount('mount', ['--make-rshared', path]);
}
