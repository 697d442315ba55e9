// The ImageService: ListImages, ImageStatus, PullImage, RemoveImage and ImageFsInfo.

import { dirname } from 'node:path';
import type { Handlers } from './handlers.ts';
import type { SimImage } from './images.ts';
import { nanos } from './options.ts';
import type { SimRuntime } from './runtime-state.ts';
import type { CriImage, CriInput } from '../agent/cri/generated/cri-types.ts';

function imageMsg(img: SimImage): CriInput<CriImage> {
  return { id: img.id, repoTags: img.repoTags, repoDigests: img.repoDigests, size: img.size, username: '', spec: { image: img.id, annotations: {} }, pinned: img.pinned };
}

export function imageHandlers(rt: SimRuntime): Handlers {
  const { images, settings } = rt;
  return {
    async ListImages(req) {
      const wanted: string = req.filter?.image?.image ?? '';
      if (!wanted) return { images: images.list().map(imageMsg) };
      const one = images.find(wanted);
      return { images: one ? [imageMsg(one)] : [] };
    },

    async ImageStatus(req) {
      const img = images.find(req.image?.image ?? '');
      return { image: img ? imageMsg(img) : undefined, info: {} };
    },

    async PullImage(req) {
      const img = await images.pull(req.image?.image ?? '');
      settings.log.debug('image pulled', { image: req.image?.image, id: img.id });
      return { imageRef: img.id };
    },

    async RemoveImage(req) {
      images.remove(req.image?.image ?? '');
      return {};
    },

    async ImageFsInfo() {
      const all = images.list();
      const used = all.reduce((sum, i) => sum + i.size, 0);
      const now = nanos(settings.clock.now());
      // the socket's directory stands in for the snapshotter's: it exists on the node
      const usage = (bytes: number, inodes: number) => ({ timestamp: now, fsId: { mountpoint: dirname(settings.socket) }, usedBytes: { value: bytes }, inodesUsed: { value: inodes } });
      return { imageFilesystems: [usage(used, all.length * 64)], containerFilesystems: [] };
    },
  };
}
