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

/** the last failed pull of each back-off key: when, and what the runtime said */
export type PullFailures = Map<string, { at: number; message: string }>;

export async function ensureImage(cri: CriClient, pod: Pod, c: Container, backoff: RestartBackoff, now: () => number, event: PodEvent, failures: PullFailures = new Map()): Promise<string> {
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
  const last = failures.get(key);
  // the back-off runs from the last failed pull, as the kubelet's IsInBackOffSinceUpdate
  const wait = last ? backoff.check(key, last.at) : undefined;
  if (wait?.inBackoff) {
    const message = `Back-off pulling image "${image}"`;
    event('Normal', 'BackOff', message);
    // the status says why the last pull failed too (Kubernetes 1.32+)
    throw new ContainerStartError('ImagePullBackOff', `${message}: ErrImagePull: ${last!.message}`, wait.remainingMs);
  }
  failures.delete(key);
  event('Normal', 'Pulling', `Pulling image "${image}"`);
  const started = now();
  try {
    const res = await cri.pullImage({ image: { image } });
    const took = now() - started;
    event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${seconds(took)} (${seconds(took)} including waiting)`);
    backoff.forget(key);
    return res.imageRef;
  } catch (err) {
    const at = now();
    backoff.next(key, at);
    const message = (err as Error).message;
    failures.set(key, { at, message });
    event('Warning', 'Failed', `Failed to pull image "${image}": ${message}`);
    event('Warning', 'Failed', 'Error: ErrImagePull');
    // the waiting message is the runtime's error itself, as the kubelet reports it
    // soon again, to show the back-off while it lasts
    throw new ContainerStartError('ErrImagePull', message, 1000);
  }
}
