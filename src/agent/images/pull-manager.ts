// The agent's image pull manager (KubeletEnsureSecretPulledImages): an intent is written before a
// pull and removed once no pull of that image is in flight; a successful pull records the image
// ref with the credentials used; a pod asking for a present image is let through only as the
// verification policy and the record allow (pull-policy.ts). At start, intents a previous run
// left behind whose image the runtime now holds become records without credentials, so the next
// pod to use such an image proves its own (as the kubelet fails safe), and records of images the
// runtime no longer has are dropped.

import type { Logger } from '../../api/log.ts';
import { mergeCredentials, mustAttemptPull, imageName, requiresVerification, type VerificationPolicy } from './pull-policy.ts';
import { recordTime, type ImagePullCredentials, type ImagePullSecretRecord, type PullRecordStore } from './pull-records.ts';

export interface ImagePullManager {
  recordPullIntent(image: string): Promise<void>;
  recordImagePulled(image: string, imageRef: string, credentials: ImagePullCredentials | undefined): Promise<void>;
  recordImagePullFailed(image: string): Promise<void>;
  /** whether the pod must pull a present image again; its secrets are read only when they matter */
  mustAttemptImagePull(image: string, imageRef: string, podSecrets: () => Promise<ImagePullSecretRecord[]>): Promise<boolean>;
}

export interface PullManagerOptions {
  store: PullRecordStore;
  policy: VerificationPolicy;
  allowlist: string[];
  now: () => number;
  log: Logger;
  /** the runtime's images (id, tags, digests), for intents left from a previous run */
  listImages: () => Promise<Array<{ id: string; repoTags: string[]; repoDigests: string[] }>>;
}

export async function startImagePullManager(o: PullManagerOptions): Promise<ImagePullManager> {
  const verify = requiresVerification(o.policy, o.allowlist);
  /** pulls in flight per image: the intent goes when the last one ends */
  const inFlight = new Map<string, number>();
  /** one change at a time per record, so merges never lose each other's credentials */
  let recordQueue: Promise<unknown> = Promise.resolve();
  const serially = <T>(f: () => Promise<T>): Promise<T> => { const p = recordQueue.then(f); recordQueue = p.catch(() => undefined); return p; };

  const writeIfChanged = (image: string, imageRef: string, creds: ImagePullCredentials | undefined) => serially(async () => {
    const name = imageName(image);
    if (name === undefined) throw new Error(`invalid image name "${image}"`);
    const now = recordTime(o.now());
    const existing = await o.store.getPulled(imageRef).catch(() => undefined);
    if (!existing) {
      // the record alone marks the image as the agent's; no credentials means any pod must prove its own
      await o.store.writePulled({ lastUpdatedTime: now, imageRef, credentialMapping: creds ? { [name]: creds } : {} });
      return;
    }
    const merged = mergeCredentials(existing, name, creds, now);
    if (merged.changed) await o.store.writePulled(merged.record);
  });

  const done = async (image: string) => {
    const n = inFlight.get(image) ?? 0;
    if (n > 1) { inFlight.set(image, n - 1); return; }
    await o.store.deleteIntent(image);
    inFlight.delete(image);
  };

  const startedAt = recordTime(o.now());
  const images = await o.listImages().catch(err => { o.log.warn('listing images failed', { err: String(err) }); return undefined; });
  // intents from a previous run: the images the runtime now has were pulled by the agent
  const intents = await o.store.listIntents().catch(err => { o.log.warn('image pull intents unreadable', { err: String(err) }); return [] as string[]; });
  if (intents.length && images) {
    const wanted = new Set(intents);
    for (const img of images) {
      for (const ref of new Set([...img.repoDigests, ...img.repoTags].filter(r => wanted.has(r)))) {
        try {
          await writeIfChanged(ref, img.id, undefined);
          await o.store.deleteIntent(ref);
        } catch (err) {
          o.log.warn('image pull record not written', { imageRef: img.id, err: String(err) });
        }
      }
    }
  }

  // records of images the runtime no longer holds (removed while the agent was away) go, as the
  // kubelet prunes them; a record written since the start is kept
  if (images) {
    const present = new Set(images.map(i => i.id));
    for (const r of await o.store.listPulled().catch(() => [])) {
      if (!present.has(r.imageRef) && r.lastUpdatedTime < startedAt) await o.store.deletePulled(r.imageRef).catch(err => o.log.warn('image pulled record not removed', { imageRef: r.imageRef, err: String(err) }));
    }
  }

  return {
    async recordPullIntent(image) {
      await o.store.writeIntent(image);
      inFlight.set(image, (inFlight.get(image) ?? 0) + 1);
    },
    async recordImagePulled(image, imageRef, credentials) {
      try {
        await writeIfChanged(image, imageRef, credentials);
      } catch (err) {
        // the intent stays: the next start turns it into a record
        o.log.warn('image pulled record not written', { imageRef, err: String(err) });
        return;
      }
      await done(image);
    },
    recordImagePullFailed: image => done(image).catch(err => o.log.warn('image pull intent not removed', { image, err: String(err) })),
    async mustAttemptImagePull(image, imageRef, podSecrets) {
      if (!imageRef) return true;
      let record;
      let pulledByAgent: boolean;
      try {
        record = await o.store.getPulled(imageRef);
        pulledByAgent = !!record || (inFlight.get(image) ?? 0) > 0 || await o.store.intentExists(image);
      } catch (err) {
        o.log.warn('image pull records unreadable', { err: String(err) });
        return true;
      }
      if (!verify(image, pulledByAgent)) return false;
      if (!record) return true;
      // the pod's secrets matter only when the image is kept for some secrets' holders
      const kept = record.credentialMapping[imageName(image) ?? ''];
      const decision = mustAttemptPull(image, record, kept && !kept.nodePodsAccessible && kept.kubernetesSecrets?.length ? await podSecrets() : []);
      if (decision.remember) await writeIfChanged(image, imageRef, decision.remember).catch(err => o.log.warn('image pulled record not written', { imageRef, err: String(err) }));
      return decision.pull;
    },
  };
}
