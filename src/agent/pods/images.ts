// Making sure a container's image is on the node, as its imagePullPolicy says: Never uses only
// what is present, IfNotPresent pulls when absent, Always asks the runtime to pull every time.
// Pulls use the pod's image pull secrets that match the image's registry, each in turn until one
// works (none: an anonymous pull). With KubeletEnsureSecretPulledImages (a pull manager given), a
// present image is used without a pull only when the verification policy and the image's pull
// record let this pod use it; otherwise it is pulled again with the pod's own credentials (Never:
// refused as if absent, so a pod learns nothing of images it may not use). Failed pulls are
// retried with back-off, shown as ErrImagePull, then ImagePullBackOff.

import type { CriClient } from '../cri/client.ts';
import type { RestartBackoff } from './backoff.ts';
import { ContainerStartError } from './config-errors.ts';
import type { Container, Pod } from './types.ts';
import { parseImageRef } from '../../api/image-ref.ts';
import { secretsKeyring, type PullSecret, type TrackedAuth } from '../images/keyring.ts';
import type { ImagePullManager } from '../images/pull-manager.ts';
import type { ImagePullCredentials } from '../images/pull-records.ts';

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

export interface PullCredentialsSource {
  /** the records of pulls and who may use their images (absent: the gate is off) */
  manager?: ImagePullManager;
  /** the pod's image pull secrets that exist (absent: the pod has none the agent can read) */
  secrets?: (pod: Pod) => Promise<PullSecret[]>;
}

/** what a pull with this credential lets the records say */
function usedCredentials(used: TrackedAuth | undefined): ImagePullCredentials {
  if (!used?.secret) return { nodePodsAccessible: true };
  return { kubernetesSecrets: [{ ...used.secret, credentialHash: used.hash }] };
}

/** the runtime's pull, with each matching credential in turn; all failing, their errors as Go aggregates them */
async function pullWith(cri: CriClient, image: string, creds: TrackedAuth[]): Promise<{ imageRef: string; used?: TrackedAuth }> {
  if (!creds.length) return { imageRef: (await cri.pullImage({ image: { image } })).imageRef };
  const errors: string[] = [];
  for (const c of creds) {
    try {
      const res = await cri.pullImage({ image: { image }, auth: { username: c.auth.username ?? '', password: c.auth.password ?? '', auth: '', serverAddress: '', identityToken: '', registryToken: '' } });
      return { imageRef: res.imageRef, used: c };
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
}

export async function ensureImage(cri: CriClient, pod: Pod, c: Container, backoff: RestartBackoff, now: () => number, event: PodEvent, failures: PullFailures = new Map(), source: PullCredentialsSource = {}): Promise<string> {
  const image = c.image ?? '';
  const policy = c.imagePullPolicy ?? defaultPullPolicy(image);
  const present = policy === 'Always' ? undefined : (await cri.imageStatus({ image: { image } })).image;
  const neverPull = () => {
    const message = `Container image "${image}" is not present with pull policy of Never`;
    event('Warning', 'ErrImageNeverPull', message);
    return new ContainerStartError('ErrImageNeverPull', message);
  };
  if (!present && policy === 'Never') throw neverPull();

  // the pod's credentials for this image's repository, looked up once and only when needed
  let creds: Promise<TrackedAuth[]> | undefined;
  const lookup = () => creds ??= (async () => {
    const repo = parseImageRef(image)?.repository;
    if (!repo || !source.secrets) return [];
    const secrets = await source.secrets(pod);
    try {
      return secretsKeyring(secrets).lookup(repo);
    } catch (err) {
      // a pull secret whose docker config does not parse: no pull is tried, the container waits saying why
      throw new ContainerStartError('ErrImagePull', (err as Error).message);
    }
  })();

  if (present) {
    if (!source.manager) {
      event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
      return present.id;
    }
    const secrets = async () => (await lookup()).flatMap(t => (t.secret ? [{ ...t.secret, credentialHash: t.hash }] : []));
    if (!await source.manager.mustAttemptImagePull(image, present.id, secrets)) {
      event('Normal', 'Pulled', `Container image "${image}" already present on machine and can be accessed by the pod`);
      return present.id;
    }
    // present, but not for this pod: as if absent
    if (policy === 'Never') throw neverPull();
  }

  const manager = source.manager;
  if (manager) {
    try { await manager.recordPullIntent(image); } catch (err) {
      throw new ContainerStartError('ErrImagePull', `Failed to record image pull intent for container image "${image}": ${(err as Error).message}`);
    }
  }
  let pulled: { imageRef: string; used?: TrackedAuth } | undefined;
  try {
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
    const withCreds = await lookup();
    event('Normal', 'Pulling', `Pulling image "${image}"`);
    const started = now();
    try {
      pulled = await pullWith(cri, image, withCreds);
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
    const took = now() - started;
    event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${seconds(took)} (${seconds(took)} including waiting)`);
    backoff.forget(key);
    return pulled.imageRef;
  } finally {
    if (manager) await (pulled ? manager.recordImagePulled(image, pulled.imageRef, usedCredentials(pulled.used)) : manager.recordImagePullFailed(image));
  }
}
