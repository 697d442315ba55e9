// A failed CRI call: the gRPC status code by name and the runtime's message.

import { status as grpcStatus } from '@grpc/grpc-js';

const codeNames = Object.fromEntries(Object.entries(grpcStatus).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k])) as Record<number, string>;

export class CriError extends Error {
  readonly code: string;
  readonly method: string;
  constructor(method: string, code: number, details: string) {
    super(`rpc error: code = ${codeNames[code] ?? code} desc = ${details}`);
    this.code = codeNames[code] ?? String(code);
    this.method = method;
  }
}

