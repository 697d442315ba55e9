// The files of a ConfigMap or Secret, as the kubelet's volume plugins make the payload: every
// key with the default mode, or only the listed items at their paths with their own modes. A
// missing object or key is an error in the kubelet's words unless the source is optional (a
// missing optional object shows no files).

import { objectData, type ObjectSource } from '../object-source.ts';
import type { Pod } from '../types.ts';
import type { PayloadFile } from '../atomic-writer.ts';
import type { CoreV1KeyToPath } from '../../../schema/generated/types.ts';
import { VolumeProblem } from './volume-error.ts';

export interface ObjectRef { kind: 'configmaps' | 'secrets'; name: string; items?: CoreV1KeyToPath[]; optional?: boolean }

const missingKey = (kind: ObjectRef['kind'], key: string) =>
  (kind === 'configmaps' ? `configmap references non-existent config key: ${key}` : `references non-existent secret key: ${key}`);

/** a payload path must stay inside the volume, as the atomic writer's validation has it */
export function checkPayloadPath(path: string): void {
  if (!path || path.startsWith('/')) throw new VolumeProblem(`invalid path: ${JSON.stringify(path)} must be relative`);
  if (path.split('/').includes('..')) throw new VolumeProblem(`invalid path: ${JSON.stringify(path)} must not contain '..'`);
  if (path.startsWith('..')) throw new VolumeProblem(`invalid path: ${JSON.stringify(path)} must not start with '..'`);
}

export async function objectFiles(src: ObjectSource, pod: Pod, ref: ObjectRef, defaultMode: number): Promise<PayloadFile[]> {
  const obj = await src.get(ref.kind, pod.metadata.namespace, ref.name);
  if (!obj) {
    if (ref.optional) return [];
    throw new VolumeProblem(`${ref.kind === 'configmaps' ? 'configmap' : 'secret'} ${JSON.stringify(ref.name)} not found`);
  }
  const data = objectData(ref.kind, obj);
  const files: PayloadFile[] = [];
  if (!ref.items?.length) {
    for (const [path, content] of data) files.push({ path, content, mode: defaultMode });
  } else {
    for (const item of ref.items) {
      const content = data.get(item.key);
      if (content === undefined) {
        if (ref.optional) continue;
        throw new VolumeProblem(missingKey(ref.kind, item.key));
      }
      files.push({ path: item.path, content, mode: item.mode ?? defaultMode });
    }
  }
  for (const f of files) checkPayloadPath(f.path);
  return files;
}
