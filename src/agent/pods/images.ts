// Making sure a container's image is on the node, as its imagePullPolicy says: Never uses only
// what is present, IfNotPresent pulls when absent, Always asks the runtime to pull every time.
// Failed pulls are retried with back-off, shown as ErrImagePull, then ImagePullBackOff.

import type { CriClient } from '../cri/client.ts';
import type { RestartBackoff } from './backoff.ts';
import { ContainerStartError } from './config-errors.ts';
import type { Container, Pod } from './types.ts';

export type PodEvent = (type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** what the API server defaults the policy to, for pods that bypass it (static pods) */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

const seconds = (ms: number) => `${Math.round(ms) / 1000}s`;

export async function ensureImage(cri: CriClient, pod: Pod, c: Container, backoff: RestartBackoff, now: () => number, event: PodEvent): Promise<string> {
  const image = c.image ?? '';
  const policy = c.imagePullPolicy ?? defaultPullPolicy(image);
  const present = policy === 'Always' ? undefined : (await cri.imageStatus({ image: { image } })).image;
  if (present) {
    event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
    return present.id;
  }
  if (policy === 'Never') {
    const message = `Container image "${image}" is not present with pull policy of Never`;
    event('Warning', 'ErrImageNeverPull', message);
    throw new ContainerStartError('ErrImageNeverPull', message);
  }
  const key = `${pod.metadata.uid}/image/${image}`;
  const b = backoff.check(key, now());
  if (b.inBackoff) {
    const message = `Back-off pulling image "${image}"`;
    event('Normal', 'BackOff', message);
    throw new ContainerStartError('ImagePullBackOff', message);
  }
  event('Normal', 'Pulling', `Pulling image "${image}"`);
  const started = now();
  try {
    const res = await cri.pullImage({ image: { image } });
    const took = now() - started;
    event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${seconds(took)} (${seconds(took)} including waiting)`);
    backoff.forget(key);
    return res.imageRef;
  } catch (err) {
    backoff.next(key, now());
    const message = `Failed to pull image "${image}": ${(err as Error).message}`;
    event('Warning', 'Failed', message);
    event('Warning', 'Failed', 'Error: ErrImagePull');
    throw new ContainerStartError('ErrImagePull', message);
  }
}
