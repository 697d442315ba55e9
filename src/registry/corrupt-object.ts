// Objects whose stored bytes cannot be decoded (written by something else, damaged on disk, or
// encrypted with a key the server no longer has). Kubernetes calls them corrupt: a read of one
// answers 500 naming the key, a list names every corrupt key at once (so an operator can find
// them all), and only a delete with ignoreStoreReadErrorWithClusterBreakingPotential removes them.

import { StatusError } from '../api/status.ts';
import { StorageError } from '../storage/interface.ts';

/** the storage error a failed decode of `key` becomes */
export function corruptObject(key: string, cause: unknown): StorageError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new StorageError('corrupt', `failed to decode the object stored at ${key}: ${why}`, { key });
}

export function isCorrupt(err: unknown): err is StorageError {
  return err instanceof StorageError && err.code === 'corrupt';
}

/** the text of Kubernetes' StorageError for a corrupt object (code 7 there), which clients see */
export function corruptObjectText(err: StorageError): string {
  return `StorageError: corrupt object, Code: 7, Key: ${err.key ?? ''}, ResourceVersion: 0, AdditionalErrorMsg: ${err.message}`;
}

/** a read of one corrupt object: 500 InternalError, as kube-apiserver passes the storage error on */
export function corruptObjectStatus(err: StorageError): StatusError {
  const text = corruptObjectText(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

/**
 * A list that met corrupt objects: one 500 with reason StoreReadError naming each key in a cause,
 * rather than the first failure only, so that all of them can be deleted.
 */
export function storeReadError(resource: string, errs: StorageError[]): StatusError {
  return new StatusError(500, 'StoreReadError', `failed to read one or more ${resource} from the storage`, {
    causes: errs.map(e => ({ reason: 'UnexpectedServerResponse', message: corruptObjectText(e), field: e.key ?? '' })),
  });
}

/** what a watcher gets when a corrupt object it could never decode is deleted under it */
export function corruptDeleteEvent(err: StorageError): StatusError {
  return new StatusError(500, 'StoreReadError', `saw a DELETED event, but object data is corrupt - ${corruptObjectText(err)}`, {
    causes: [{ reason: 'UnexpectedServerResponse', message: corruptObjectText(err), field: err.key ?? '' }],
  });
}
