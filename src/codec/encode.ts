// Values to response bodies: JSON as Go's encoder writes it (newline-terminated; indented two
// spaces without the newline with `pretty`, as json.MarshalIndent writes it), YAML, protobuf
// in Kubernetes' `k8s\0` envelope, or CBOR.

import { isProtobuf, type ResponseMediaType } from './negotiate.ts';
import { goJson, goJsonBody, goJsonIndented } from './go-json.ts';
import { encodeYaml } from './yaml.ts';
import { encodeProtobufObject } from './protobuf/envelope.ts';
import { encodeCbor } from './cbor.ts';

export function encodeBody(obj: unknown, mediaType: ResponseMediaType, opts: { pretty?: boolean } = {}): string | Uint8Array {
  // Kubernetes writes YAML by converting its JSON: the same fields, zero values and canonical
  // quantities, keys sorted
  if (mediaType === 'application/yaml') return encodeYaml(JSON.parse(goJson(obj)));
  if (isProtobuf(mediaType)) return encodeProtobufObject(obj as Record<string, unknown>);
  if (mediaType === 'application/cbor') return encodeCbor(obj as Record<string, unknown>);
  return opts.pretty ? goJsonIndented(obj) : goJsonBody(obj);
}
