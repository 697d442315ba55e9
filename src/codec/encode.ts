// Objects to response bodies: compact JSON by default, indented with `pretty`, or YAML.

import { stringify } from 'yaml';
import type { ResponseMediaType } from './negotiate.ts';

export function encodeBody(obj: unknown, mediaType: ResponseMediaType, opts: { pretty?: boolean } = {}): string {
  if (mediaType === 'application/yaml') return stringify(obj, { lineWidth: 0, aliasDuplicateObjects: false });
  return opts.pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj);
}
