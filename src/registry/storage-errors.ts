// The one place where what storage says becomes what a client reads: every StorageError code
// mapped to the Status Kubernetes answers in that case, worded as kube-apiserver words it.
// Anything that is neither a StorageError nor already a Status is a fault of the server: a
// generic 500 (the caller logs the original).

import { alreadyExists, conflict, expired, internalError, notFound, serviceUnavailable, timeout, toStatusError, StatusError, type QualifiedResource } from '../api/status.ts';
import { StorageError } from '../storage/interface.ts';
import { corruptObjectStatus } from './corrupt-object.ts';

/** what the failed operation was about, for the wording */
export interface ErrorSubject {
  /** the resource and object a single-object operation named */
  resource?: QualifiedResource;
  name?: string;
  /** the revision a read or watch asked for */
  revision?: number;
  /** the read continued a paged list */
  continued?: boolean;
}

const continueTooOld = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** a read at a revision the server has not reached: 504 with Retry-After, as a cacher answers */
export function tooLargeResourceVersion(wanted: number, current: number): StatusError {
  const err = timeout(`Too large resource version: ${wanted}, current: ${current}`, 1);
  err.status.details = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 };
  return err;
}

/**
 * a uid precondition the stored object fails: 409 in the words of the storage layer's
 * invalid-object error, as kube-apiserver passes it through (the key is where the object lives)
 */
export function uidPreconditionFailed(resource: QualifiedResource, name: string, key: string, wanted: string, actual: string): StatusError {
  return conflict(resource, name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${wanted}, UID in object meta: ${actual}`);
}

/**
 * An object over the storage limit. kube-apiserver passes etcd's error on as a 500 with no reason
 * (kubernetes/kubernetes#112152, still open, calls that a bug: the request can never succeed);
 * orch keeps etcd's words, which is what users search for, under the 413 that says "do not retry".
 */
export function storedObjectTooLarge(message: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', message);
}

export function statusFromError(err: unknown, about: ErrorSubject = {}): StatusError {
  if (!(err instanceof StorageError)) return toStatusError(err);
  const resource = about.resource ?? { group: '', resource: '' };
  const name = about.name ?? '';
  switch (err.code) {
    case 'key-exists': return alreadyExists(resource, name);
    case 'not-found': return notFound(resource, name);
    case 'conflict': return conflict(resource, name);
    case 'compacted': return expired(about.continued ? continueTooOld : `too old resource version: ${about.revision ?? 0} (${err.revision ?? 0})`);
    case 'future-revision': return tooLargeResourceVersion(about.revision ?? 0, err.revision ?? 0);
    case 'unavailable': return serviceUnavailable(`storage is unavailable: ${err.message}`);
    case 'corrupt': return corruptObjectStatus(err);
    case 'too-large': return storedObjectTooLarge(err.message);
    default: return internalError(err);
  }
}
