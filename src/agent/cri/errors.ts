// A failed CRI call: the gRPC status code by name and the runtime's message.

import { status as grpcStatus } from '@grpc/grpc-js';

const codeNames = Object.fromEntries(Object.entries(grpcStatus).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k])) as Record<number, string>;

/** the code as Go's grpc codes.Code prints it (NotFound, DeadlineExceeded; CANCELLED is Canceled) */
export function goCodeName(name: string): string {
  if (name === 'CANCELLED') return 'Canceled';
  if (name === 'OK') return 'OK';
  return name.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, ch: string) => ch.toUpperCase());
}

export class CriError extends Error {
  readonly code: string;
  readonly method: string;
  constructor(method: string, code: number, details: string) {
    // worded as Go's status errors print, since Kubernetes shows the runtime's errors that way
    super(`rpc error: code = ${codeNames[code] ? goCodeName(codeNames[code]) : code} desc = ${details}`);
    this.code = codeNames[code] ?? String(code);
    this.method = method;
  }
}

