// Values to response bodies: compact JSON by default, indented two spaces with `pretty` (as
// Kubernetes' pretty printer does, newline-terminated), or YAML.

import type { ResponseMediaType } from './negotiate.ts';
import { encodeYaml } from './yaml.ts';

export function encodeBody(obj: unknown, mediaType: ResponseMediaType, opts: { pretty?: boolean } = {}): string {
  if (mediaType === 'application/yaml') return encodeYaml(obj);
  return opts.pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj);
}
