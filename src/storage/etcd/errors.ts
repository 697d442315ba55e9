// etcd's failures as storage errors: compacted and future revisions, and an etcd that cannot be
// reached (which the API answers with a 503 and which the watch cache survives by re-listing).

import { StorageError } from '../interface.ts';

export function toStorageError(err: unknown, compacted?: () => number): StorageError {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/required revision has been compacted/.test(message)) {
    return new StorageError('compacted', 'required revision has been compacted', { revision: compacted?.() });
  }
  if (/required revision is a future revision/.test(message)) return new StorageError('future-revision', message);
  return new StorageError('unavailable', `etcd is not reachable: ${message}`);
}
