// Request bodies to values, by the body kind the Content-Type named. Malformed input is a 400
// worded as Kubernetes words it; repeated fields come back as paths for field validation.

import { decodeJson } from './json.ts';
import { decodeYaml } from './yaml.ts';

export interface Decoded {
  object: unknown;
  /** field paths given more than once (`metadata.name`); the last value given wins */
  duplicates: string[];
}

export interface DecodeOptions {
  /** a body that is not a JSON object is a 400 (default true; JSON patches are arrays) */
  requireObject?: boolean;
  /** look for repeated fields in JSON bodies (default true; YAML always reports them) */
  duplicates?: boolean;
}

export function bodyText(raw: Uint8Array): string {
  return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
}

export function decodeBody(raw: Uint8Array | string, kind: 'json' | 'yaml', opts: DecodeOptions = {}): Decoded {
  const text = typeof raw === 'string' ? raw : bodyText(raw);
  return kind === 'json' ? decodeJson(text, opts) : decodeYaml(text, opts);
}
