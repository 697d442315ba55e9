// Failures the sim answers with: a gRPC status code and containerd's wording, so that a client
// telling errors apart by code or by message sees what it would see against containerd.

import { status } from '@grpc/grpc-js';

export class SimError extends Error {
  readonly code: status;
  readonly details: string;
  constructor(code: status, details: string) {
    super(details);
    this.code = code;
    this.details = details;
  }
}

export const notFound = (details: string) => new SimError(status.NOT_FOUND, details);
export const unknown = (details: string) => new SimError(status.UNKNOWN, details);
export const invalidArgument = (details: string) => new SimError(status.INVALID_ARGUMENT, details);
export const deadlineExceeded = (details: string) => new SimError(status.DEADLINE_EXCEEDED, details);
export const unimplemented = (method: string) => new SimError(status.UNIMPLEMENTED, `method ${method} not implemented`);

/** any thrown value as what grpc-js sends back */
export function toServiceError(err: unknown): { code: status; details: string } {
  if (err instanceof SimError) return { code: err.code, details: err.details };
  return { code: status.UNKNOWN, details: err instanceof Error ? err.message : String(err) };
}
