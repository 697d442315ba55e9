// Request bodies to objects. Malformed input is a 400 with the decoder's complaint, worded the
// way Kubernetes' decoders word it.

import { parseAllDocuments } from 'yaml';
import { badRequest } from '../api/status.ts';

export interface Decoded { object: unknown }

export function decodeBody(raw: Uint8Array, kind: 'json' | 'yaml'): Decoded {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  if (kind === 'json') {
    try {
      return { object: JSON.parse(text) };
    } catch (err) {
      throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
    }
  }
  const docs = parseAllDocuments(text, { uniqueKeys: false });
  if (!Array.isArray(docs)) return { object: null };
  const real = docs.filter(d => d.contents !== null || d.errors.length > 0);
  if (real.length > 1) throw badRequest('error converting YAML to JSON: the body holds more than one YAML document');
  const doc = real[0];
  if (!doc) throw badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input");
  if (doc.errors.length) throw badRequest(`error converting YAML to JSON: yaml: ${doc.errors[0]!.message}`);
  return { object: doc.toJS({ maxAliasCount: 100 }) };
}
