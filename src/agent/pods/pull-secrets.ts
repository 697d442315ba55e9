// A pod's image pull secrets as the kubelet gathers them before pulling: each one named in
// spec.imagePullSecrets that can be read; those that cannot are named in one warning event and
// the pull goes ahead without them.

import type { PullSecret } from '../images/keyring.ts';
import type { ObjectSource } from './object-source.ts';
import type { Pod } from './types.ts';

export async function podPullSecrets(objects: ObjectSource, pod: Pod, event: (pod: Pod, type: 'Warning', reason: string, message: string) => void): Promise<PullSecret[]> {
  const found: PullSecret[] = [];
  const missing: string[] = [];
  for (const ref of pod.spec.imagePullSecrets ?? []) {
    const name = ref?.name ?? '';
    // the kubelet reads through its secret manager; a failure to read is a missing secret too
    const secret = name ? await objects.get('secrets', pod.metadata.namespace ?? 'default', name).catch(() => undefined) : undefined;
    if (secret) found.push(secret as unknown as PullSecret);
    else missing.push(name);
  }
  if (missing.length) event(pod, 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${missing.join(', ')}); attempting to pull the image may not succeed.`);
  return found;
}
