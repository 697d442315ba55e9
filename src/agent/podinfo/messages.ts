// The pod info API's messages (pods.proto) on the wire. Each pod travels as a v1.Pod message in
// Kubernetes' protobuf encoding (the bytes of the message itself, no `k8s\0` envelope: the
// field is typed v1.Pod, not runtime.Unknown), written by the codec every API response uses.

import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { decodeMessage } from '../../codec/protobuf/decode.ts';
import { encodeMessage } from '../../codec/protobuf/encode.ts';

export const podMessage = 'k8s.io.api.core.v1.Pod';
type Json = Record<string, unknown>;

const podBytes = (pod: Json) => encodeMessage(pod, podMessage);

/** PodListResponse: `pods` (repeated v1.Pod, field 1) */
export function encodePodList(pods: Json[]): Uint8Array {
  const w = new BinaryWriter();
  for (const p of pods) w.tag(1, WireType.LengthDelimited).bytes(podBytes(p));
  return w.finish();
}

/** PodWatchResponse and PodGetResponse: `pod` (v1.Pod, field 1) */
export function encodeOnePod(pod: Json): Uint8Array {
  return new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(podBytes(pod)).finish();
}

/** fields of `bytes` by number, the last of each kept (proto3's rule for a repeated scalar) */
function readFields(bytes: Uint8Array, onField: (no: number, r: BinaryReader, wt: WireType) => boolean): void {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    if (!onField(no, r, wt)) r.skip(wt, no);
  }
}

/** PodGetRequest: `podUID` (string, field 1) */
export function decodePodGetRequest(bytes: Uint8Array): { podUID: string } {
  let podUID = '';
  readFields(bytes, (no, r, wt) => {
    if (no !== 1 || wt !== WireType.LengthDelimited) return false;
    podUID = r.string();
    return true;
  });
  return { podUID };
}

export function encodePodGetRequest(req: { podUID: string }): Uint8Array {
  const w = new BinaryWriter();
  if (req.podUID) w.tag(1, WireType.LengthDelimited).string(req.podUID);
  return w.finish();
}

/** PodListRequest and PodWatchRequest have no fields; anything sent is ignored as proto3 ignores unknown fields */
export function decodeEmpty(bytes: Uint8Array): Record<string, never> {
  readFields(bytes, () => false);
  return {};
}

/** PodListResponse → pods (for clients and tests) */
export function decodePodList(bytes: Uint8Array): Json[] {
  const pods: Json[] = [];
  readFields(bytes, (no, r, wt) => {
    if (no !== 1 || wt !== WireType.LengthDelimited) return false;
    pods.push(decodeMessage(r.bytes(), podMessage) as Json);
    return true;
  });
  return pods;
}

/** PodWatchResponse / PodGetResponse → pod (for clients and tests) */
export function decodeOnePod(bytes: Uint8Array): Json | undefined {
  let pod: Json | undefined;
  readFields(bytes, (no, r, wt) => {
    if (no !== 1 || wt !== WireType.LengthDelimited) return false;
    pod = decodeMessage(r.bytes(), podMessage) as Json;
    return true;
  });
  return pod;
}
