// etcd's failures as storage errors: compacted and future revisions, values too large, and an
// etcd that cannot be reached (which the API answers with a 503 and which the watch cache survives by re-listing).

import { StorageError } from '../interface.ts';
import { valueTooLargeMessage } from '../value-limit.ts';

export function toStorageError(err: unknown, compacted?: () => number): StorageError {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/required revision has been compacted/.test(message)) {
    return new StorageError('compacted', 'required revision has been compacted', { revision: compacted?.() });
  }
  // etcd's own limit (a smaller --max-request-bytes, or the transaction's framing past ours)
  if (/request is too large|message larger than max/.test(message)) return new StorageError('too-large', valueTooLargeMessage);
  if (/required revision is a future revision/.test(message)) return new StorageError('future-revision', message);
  return new StorageError('unavailable', `etcd is not reachable: ${message}`);
}
