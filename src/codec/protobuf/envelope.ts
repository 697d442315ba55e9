// The Kubernetes protobuf envelope: the magic `k8s\0`, then a runtime.Unknown holding the
// type (apiVersion, kind) and the object's own message bytes.

import { Reader } from './wire.ts';
import { decodeMessage, hasMessage } from './decode.ts';

export const protobufMagic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** the protobuf message of a kind in a group version */
export function messageFor(apiVersion: string, kind: string): string | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  const candidates: string[] = [];
  if (group === '') candidates.push(`k8s.io.api.core.v1.${kind}`);
  else {
    const label = group === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : group.split('.')[0]!;
    candidates.push(`k8s.io.api.${label}.${version}.${kind}`);
  }
  candidates.push(`k8s.io.apimachinery.pkg.apis.meta.${version}.${kind}`, `k8s.io.apimachinery.pkg.apis.meta.v1.${kind}`);
  return candidates.find(hasMessage);
}

export class ProtobufError extends Error {}

/** a protobuf request body as { apiVersion, kind, object } */
export function decodeProtobufObject(body: Uint8Array): { apiVersion: string; kind: string; object: Record<string, unknown> } {
  if (body.length < 4 || !protobufMagic.every((b, i) => body[i] === b)) {
    throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  const r = new Reader(body, 4);
  let apiVersion = '', kind = '', contentEncoding = '', contentType = '';
  let raw: Uint8Array | undefined;
  const text = new TextDecoder();
  try {
    while (!r.done()) {
      const tag = r.varint();
      const field = tag >>> 3;
      if (field === 1) {
        const tm = new Reader(r.bytes());
        while (!tm.done()) {
          const t = tm.varint();
          if (t >>> 3 === 1) apiVersion = text.decode(tm.bytes());
          else if (t >>> 3 === 2) kind = text.decode(tm.bytes());
          else tm.skip(t & 7);
        }
      } else if (field === 2) raw = r.bytes();
      else if (field === 3) contentEncoding = text.decode(r.bytes());
      else if (field === 4) contentType = text.decode(r.bytes());
      else r.skip(tag & 7);
    }
  } catch (err) {
    throw new ProtobufError(`malformed protobuf envelope: ${(err as Error).message}`);
  }
  if (contentEncoding) throw new ProtobufError(`unsupported content encoding ${JSON.stringify(contentEncoding)}`);
  if (contentType && contentType !== 'application/vnd.kubernetes.protobuf' && contentType !== 'application/vnd.orch.protobuf') {
    throw new ProtobufError(`unsupported content type ${JSON.stringify(contentType)} in the envelope`);
  }
  const message = messageFor(apiVersion, kind);
  if (!message) throw new ProtobufError(`no protobuf message for ${apiVersion}, Kind=${kind}`);
  let object: Record<string, unknown>;
  try {
    object = decodeMessage(raw ?? new Uint8Array(0), message) as Record<string, unknown>;
  } catch (err) {
    throw new ProtobufError(`malformed ${kind}: ${(err as Error).message}`);
  }
  return { apiVersion, kind, object: { apiVersion, kind, ...object } };
}
