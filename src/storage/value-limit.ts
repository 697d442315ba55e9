// The largest value storage keeps. etcd refuses any request over --max-request-bytes (1.5 MiB by
// default) with "etcdserver: request is too large"; the SQLite backend holds itself to the same
// bound, so an object that one backend refuses is refused by the other, before anything is written.

import { StorageError } from './interface.ts';

/** etcd's default --max-request-bytes */
export const maxValueBytes = 1.5 * 1024 * 1024;

/** etcd's own wording, which is also what kube-apiserver passes on to clients */
export const valueTooLargeMessage = 'etcdserver: request is too large';

export function valueTooLarge(key: string): StorageError {
  return new StorageError('too-large', valueTooLargeMessage, { key });
}

/** refuses a value (as stored: encoded, and encrypted when encryption at rest is on) over the bound */
export function checkValueSize(key: string, value: Uint8Array, limit: number = maxValueBytes): void {
  if (value.byteLength > limit) throw valueTooLarge(key);
}
