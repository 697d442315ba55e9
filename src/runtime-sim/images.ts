// The images a simulated node holds. Pulls take the configured delay and succeed unless the
// image is one the "registry" does not have; the failures carry containerd's wording.

import { status } from '@grpc/grpc-js';
import { formatImageRef, normalizeImageRef, parseImageRef, simulatedDigest } from './image-ref.ts';
import { SimError, unknown } from './grpc-errors.ts';
import type { Clock } from '../api/clock.ts';

export interface SimImage {
  /** the config digest, "sha256:…" */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  pinned: boolean;
}

export class ImageStore {
  readonly #images = new Map<string, SimImage>();
  readonly #unpullable: Set<string>;
  readonly #clock: Clock;
  readonly #pullDelayMs: number;

  constructor(opts: { clock: Clock; pullDelayMs: number; unpullable: string[]; preloaded: string[] }) {
    this.#clock = opts.clock;
    this.#pullDelayMs = opts.pullDelayMs;
    this.#unpullable = new Set(opts.unpullable.map(n => normalizeImageRef(n) ?? n));
    for (const name of opts.preloaded) this.add(name);
  }

  /** the image a reference, an id or a repo digest names */
  find(ref: string): SimImage | undefined {
    const byId = this.#images.get(ref.startsWith('sha256:') ? ref : `sha256:${ref}`);
    if (byId) return byId;
    const name = normalizeImageRef(ref);
    if (!name) return undefined;
    for (const img of this.#images.values()) if (img.repoTags.includes(name) || img.repoDigests.includes(name)) return img;
    return undefined;
  }

  list(): SimImage[] {
    return [...this.#images.values()];
  }

  /** the image is present afterwards; pulling what is present again only takes the delay */
  async pull(ref: string): Promise<SimImage> {
    const parsed = parseImageRef(ref);
    if (!parsed) throw unknown(`failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": invalid reference format`);
    const name = formatImageRef(parsed);
    await new Promise<void>(done => this.#pullDelayMs > 0 ? this.#clock.after(this.#pullDelayMs, done) : done());
    if (this.#unpullable.has(name)) {
      throw unknown(`failed to pull and unpack image "${name}": failed to resolve reference "${name}": ${name}: not found`);
    }
    const host = parsed.repository.split('/')[0]!;
    if (host.endsWith('.invalid')) {
      const path = parsed.repository.slice(host.length + 1);
      throw unknown(`failed to pull and unpack image "${name}": failed to resolve reference "${name}": failed to do request: Head "https://${host}/v2/${path}/manifests/${parsed.digest ?? parsed.tag}": dial tcp: lookup ${host}: no such host`);
    }
    return this.add(name);
  }

  /** makes an image present without a pull */
  add(ref: string, pinned = false): SimImage {
    const parsed = parseImageRef(ref);
    if (!parsed) throw new SimError(status.INVALID_ARGUMENT, `invalid image reference ${JSON.stringify(ref)}`);
    const tagged = parsed.tag ? formatImageRef({ repository: parsed.repository, tag: parsed.tag }) : undefined;
    // an image's identity follows its repository and tag, or its digest when pulled by digest alone
    const identity = tagged ?? formatImageRef(parsed);
    const id = simulatedDigest('config', identity);
    const digest = parsed.digest ?? simulatedDigest('manifest', identity);
    const existing = this.#images.get(id);
    const image: SimImage = existing ?? { id, repoTags: [], repoDigests: [], size: simulatedSize(id), pinned };
    if (tagged && !image.repoTags.includes(tagged)) image.repoTags.push(tagged);
    const repoDigest = `${parsed.repository}@${digest}`;
    if (!image.repoDigests.includes(repoDigest)) image.repoDigests.push(repoDigest);
    image.pinned ||= pinned;
    this.#images.set(id, image);
    return image;
  }

  /** removes the whole image a reference names; removing an absent one is not an error */
  remove(ref: string): void {
    const image = this.find(ref);
    if (image) this.#images.delete(image.id);
  }
}

/** a plausible size between 1 and 65 MiB, fixed per image */
function simulatedSize(id: string): number {
  return (1 + (parseInt(id.slice(7, 11), 16) % 64)) * 1024 * 1024;
}
