// Image garbage collection as the kubelet does it: every 5 minutes, when the image
// filesystem's usage reaches imageGCHighThresholdPercent, unused images are removed, least
// recently used first, until usage is down to imageGCLowThresholdPercent. An image is used
// while any container (running or not) refers to it; pinned images, the runtime's sandbox
// image and images first seen less than imageMinimumGCAge ago are kept. Disk pressure asks
// for every unused image at once (deleteUnused).

import type { Logger } from '../../api/log.ts';
import type { CriClient } from '../cri/client.ts';
import type { DiskStats } from '../machine/usage.ts';

export interface ImageRecord { id: string; size: number; pinned: boolean; firstDetected: number; lastUsed: number }

/** bytes to free: none below the high threshold, else down to the low one (the kubelet's arithmetic) */
export function bytesToFree(capacity: number, available: number, highPercent: number, lowPercent: number): number {
  if (capacity <= 0) return 0;
  const usagePercent = 100 - Math.floor((available * 100) / capacity);
  if (usagePercent < highPercent) return 0;
  return Math.max(0, Math.floor((capacity * (100 - lowPercent)) / 100) - available);
}

/** the images to remove to free `amount` bytes: unused, unpinned, old enough, least recently used first */
export function imagesToFree(images: ImageRecord[], inUse: ReadonlySet<string>, amount: number, now: number, minAgeMs: number): { remove: ImageRecord[]; eligible: number } {
  const candidates = images
    .filter(i => !inUse.has(i.id) && !i.pinned && now - i.firstDetected >= minAgeMs)
    .sort((a, b) => a.lastUsed - b.lastUsed || a.firstDetected - b.firstDetected);
  const remove: ImageRecord[] = [];
  let freed = 0;
  for (const i of candidates) {
    if (freed >= amount) break;
    remove.push(i);
    freed += i.size;
  }
  return { remove, eligible: candidates.reduce((n, i) => n + i.size, 0) };
}

export interface ImageGcOptions {
  cri: CriClient;
  disk: DiskStats;
  highThresholdPercent: number;
  lowThresholdPercent: number;
  minAgeMs: number;
  now(): number;
  log: Logger;
  /** a Warning event on the node */
  nodeEvent?(reason: string, message: string): void;
}

export interface ImageGc {
  /** one pass at the thresholds; the bytes freed */
  garbageCollect(): Promise<number>;
  /** every unused image old enough, whatever the thresholds (disk pressure) */
  deleteUnused(): Promise<number>;
}

export function imageGc(o: ImageGcOptions): ImageGc {
  const records = new Map<string, { firstDetected: number; lastUsed: number }>();
  const log = o.log.with({ component: 'image-gc' });

  /** the sandbox image containerd runs pods with, which no container refers to */
  async function sandboxImageId(): Promise<string | undefined> {
    try {
      const info = (await o.cri.status({ verbose: true })).info?.config;
      const name = info ? JSON.parse(info).sandboxImage : undefined;
      return name ? (await o.cri.imageStatus({ image: { image: name } })).image?.id : undefined;
    } catch { return undefined; }
  }

  async function detect(): Promise<{ images: ImageRecord[]; inUse: Set<string> }> {
    const now = o.now();
    const [imgs, ctrs, sandboxImage] = await Promise.all([o.cri.listImages({}), o.cri.listContainers({}), sandboxImageId()]);
    const inUse = new Set<string>();
    for (const c of ctrs.containers ?? []) { if (c.imageRef) inUse.add(c.imageRef); if (c.imageId) inUse.add(c.imageId); }
    if (sandboxImage) inUse.add(sandboxImage);
    const seen = new Set<string>();
    const images: ImageRecord[] = [];
    for (const i of imgs.images ?? []) {
      seen.add(i.id);
      const r = records.get(i.id) ?? { firstDetected: now, lastUsed: now };
      if (inUse.has(i.id) || i.repoDigests.some(d => inUse.has(d))) { r.lastUsed = now; inUse.add(i.id); }
      records.set(i.id, r);
      images.push({ id: i.id, size: Number(i.size), pinned: !!i.pinned, ...r });
    }
    for (const id of records.keys()) if (!seen.has(id)) records.delete(id);
    return { images, inUse };
  }

  async function free(amount: number): Promise<{ freed: number; eligible: number }> {
    const { images, inUse } = await detect();
    const { remove, eligible } = imagesToFree(images, inUse, amount, o.now(), o.minAgeMs);
    let freed = 0;
    for (const i of remove) {
      try {
        await o.cri.removeImage({ image: { image: i.id } });
        records.delete(i.id);
        freed += i.size;
        log.info('removed unused image', { image: i.id, size: i.size });
      } catch (err) {
        log.warn('failed to remove image', { image: i.id, err: String((err as Error).message ?? err) });
      }
    }
    return { freed, eligible };
  }

  return {
    async garbageCollect() {
      const fs = (await o.cri.imageFsInfo({})).imageFilesystems?.[0];
      const mount = fs?.fsId?.mountpoint;
      if (!mount) { await detect(); return 0; }
      const s = await o.disk(mount);
      const amount = bytesToFree(s.capacity, s.available, o.highThresholdPercent, o.lowThresholdPercent);
      if (amount <= 0) { await detect(); return 0; }
      log.info('image filesystem over its high threshold', { capacity: s.capacity, available: s.available, bytesToFree: amount });
      const { freed, eligible } = await free(amount);
      if (freed < amount) {
        const message = `Failed to garbage collect required amount of images. Attempted to free ${amount} bytes, but only found ${eligible} bytes eligible to free.`;
        o.nodeEvent?.('FreeDiskSpaceFailed', message);
        log.warn(message);
      }
      return freed;
    },
    async deleteUnused() {
      return (await free(Infinity)).freed;
    },
  };
}
