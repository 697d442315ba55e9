// A container that cannot be configured (a missing ConfigMap key, an unsupported volume) waits
// with CreateContainerConfigError; one the runtime refuses waits with CreateContainerError.
// The reason travels with the error so the worker can show it in the container's status.

export class ContainerStartError extends Error {
  readonly reason: string;
  /** when trying again makes sense (an image pull's back-off ends), if known */
  readonly retryAfterMs?: number;
  constructor(reason: string, message: string, retryAfterMs?: number) {
    super(message);
    this.reason = reason;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

export const configError = (message: string) => new ContainerStartError('CreateContainerConfigError', message);
