// ConfigMaps and Secrets are held whole in memory by every node and controller that reads them,
// so Kubernetes caps their payload at 1 MiB; the request limit (3 MiB) alone would allow more.

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';

export const maxDataBytes = 1024 * 1024;

function tooLong(field: string): FieldError {
  return { type: 'FieldValueTooLong', field, detail: `must have at most ${maxDataBytes} bytes` };
}

function entries(v: unknown): [string, unknown][] {
  return isObject(v) ? Object.entries(v) : [];
}

/** the bytes a base64 string decodes to, without decoding it */
function base64Bytes(v: unknown): number {
  if (typeof v !== 'string') return 0;
  const padding = v.endsWith('==') ? 2 : v.endsWith('=') ? 1 : 0;
  return Math.floor(v.length * 3 / 4) - padding;
}

/** data (text) and binaryData (base64) together; the error names the whole object, as `[]` */
export function validateConfigMapSize(obj: KubeObject): FieldError[] {
  let total = 0;
  for (const [, v] of entries(obj.data)) total += typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0;
  for (const [, v] of entries(obj.binaryData)) total += base64Bytes(v);
  return total > maxDataBytes ? [tooLong('[]')] : [];
}

/** data (base64, with stringData already folded in) */
export function validateSecretSize(obj: KubeObject): FieldError[] {
  let total = 0;
  for (const [, v] of entries(obj.data)) total += base64Bytes(v);
  return total > maxDataBytes ? [tooLong('data')] : [];
}
