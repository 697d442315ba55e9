// Request bodies: read with a size limit (Kubernetes refuses bodies over 3 MiB).

import type { Readable } from 'node:stream';
import { requestEntityTooLarge } from '../api/status.ts';

export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * The whole body, up to `limit` bytes. `signal` ends the wait for a body that stalls (the request
 * timed out, or its client left): the read fails with `abandoned`.
 */
export function readBody(stream: Readable, limit: number = maxRequestBodyBytes, signal?: AbortSignal, abandoned?: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    signal?.addEventListener('abort', () => { if (!failed) { failed = true; reject(abandoned?.() ?? new Error('the request was abandoned')); } }, { once: true });
    stream.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(requestEntityTooLarge(limit));
        stream.resume();
        return;
      }
      chunks.push(c);
    });
    stream.on('end', () => { if (!failed) resolve(Buffer.concat(chunks)); });
    stream.on('error', err => { if (!failed) { failed = true; reject(err); } });
  });
}
