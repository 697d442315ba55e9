// A create refused because its namespace is being deleted: controllers let it pass quietly, as
// Kubernetes' do (no event, no failure condition), since every create there will fail.

import { ApiError } from '../client/api-error.ts';

export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof ApiError && !!err.status.details?.causes?.some(c => c.reason === 'NamespaceTerminating');
}
