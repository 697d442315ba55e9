// Values to response bodies: JSON as Go's encoder writes it (newline-terminated; indented two
// spaces without the newline with `pretty`, as json.MarshalIndent writes it), or YAML.

import type { ResponseMediaType } from './negotiate.ts';
import { goJsonBody, goJsonIndented } from './go-json.ts';
import { encodeYaml } from './yaml.ts';

export function encodeBody(obj: unknown, mediaType: ResponseMediaType, opts: { pretty?: boolean } = {}): string {
  if (mediaType === 'application/yaml') return encodeYaml(obj);
  return opts.pretty ? goJsonIndented(obj) : goJsonBody(obj);
}
