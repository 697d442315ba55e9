// The public face of the protobuf codec: whole objects in and out of the `k8s\0` + Unknown
// envelope. Failures are ProtobufErrors with messages fit for a 400 / 406 Status.

import { apiVersionToMessage, kindToMessage } from './messages.ts';
import { decodeMessage, type DecodedObject, type DecodeOptions } from './decode.ts';
import { encodeEnvelope } from './encode.ts';
import { protobufMagic, ProtobufError, readUnknown } from './unknown.ts';

export { protobufMagic, ProtobufError, kindToMessage };
export type { DecodedObject, DecodeOptions };

/** the protobuf message of a kind in an apiVersion ("v1", "apps/v1"); undefined when there is none */
export function messageFor(apiVersion: string, kind: string): string | undefined {
  return apiVersionToMessage(apiVersion, kind);
}

/** whether objects of this type can be written as protobuf (CRDs and unknown kinds cannot) */
export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return apiVersionToMessage(apiVersion, kind) !== undefined;
}

const acceptedContentTypes = new Set(['', 'application/vnd.kubernetes.protobuf', 'application/vnd.orch.protobuf']);

/** a protobuf body (magic + Unknown) as { apiVersion, kind, object }; object carries apiVersion and kind */
export function decodeProtobufObject(body: Uint8Array, options?: DecodeOptions): DecodedObject {
  const env = readUnknown(body);
  if (env.contentEncoding) throw new ProtobufError(`unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  if (!acceptedContentTypes.has(env.contentType)) {
    throw new ProtobufError(`unsupported content type ${JSON.stringify(env.contentType)} in the protobuf envelope`);
  }
  if (!env.kind) throw new ProtobufError(`Object 'Kind' is missing in protobuf envelope`);
  const message = apiVersionToMessage(env.apiVersion, env.kind);
  if (!message) throw new ProtobufError(`no protobuf message for ${env.apiVersion}, Kind=${env.kind}`);
  try {
    const fields = decodeMessage(env.raw, message, options) as Record<string, unknown>;
    return { apiVersion: env.apiVersion, kind: env.kind, object: { apiVersion: env.apiVersion, kind: env.kind, ...fields } };
  } catch (err) {
    throw new ProtobufError(`malformed ${env.kind}: ${(err as Error).message}`);
  }
}

/**
 * An object as a protobuf body (magic + Unknown). apiVersion and kind default to the object's
 * own; throws ProtobufError when the type has no protobuf message.
 */
export function encodeProtobufObject(obj: Record<string, unknown>, apiVersion?: string, kind?: string): Uint8Array {
  const av = apiVersion ?? (typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
  const k = kind ?? (typeof obj.kind === 'string' ? obj.kind : '');
  const message = apiVersionToMessage(av, k);
  if (!message) throw new ProtobufError(`no protobuf message for ${av}, Kind=${k}`);
  return encodeEnvelope(obj, av, k, message);
}
