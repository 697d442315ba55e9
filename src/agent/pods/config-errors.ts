// A container that cannot be configured (a missing ConfigMap key, an unsupported volume) waits
// with CreateContainerConfigError; one the runtime refuses waits with CreateContainerError.
// The reason travels with the error so the worker can show it in the container's status.

export class ContainerStartError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

export const configError = (message: string) => new ContainerStartError('CreateContainerConfigError', message);
