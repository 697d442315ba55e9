// How Kubernetes reports a patch that is well-formed but cannot be applied to the object
// (a failed JSON patch `test`, a path that is not there): 422 with the reason in one cause.

import { StatusError } from '../api/status.ts';

export function patchNotApplicable(message: string): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message }],
  });
}
