// Secrets: `stringData` is a write-only convenience folded into `data` (base64) on every write,
// `type` defaults to Opaque and never changes, `immutable: true` freezes the contents, and the
// decoded data may hold at most 1 MiB.

import { isObject, type KubeObject } from '../../api/object.ts';
import type { CoreV1Secret } from '../../schema/generated/types.ts';
import { strategyWith } from '../strategy.ts';
import { validateSecretUpdate } from '../validation/immutable.ts';
import { validateSecretSize } from '../validation/data-size.ts';

type Secret = CoreV1Secret & KubeObject;

function foldStringData(obj: Secret): void {
  obj.type ??= 'Opaque';
  if (!isObject(obj.stringData)) { delete obj.stringData; return; }
  const data = obj.data ?? {};
  for (const [k, v] of Object.entries(obj.stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
  obj.data = data;
  delete obj.stringData;
}

export const secretStrategy = strategyWith<Secret>({
  prepareForCreate: foldStringData,
  prepareForUpdate: foldStringData,
  validateCreate: validateSecretSize,
  validateUpdate: (obj, old) => [...validateSecretSize(obj), ...validateSecretUpdate(obj, old)],
});
