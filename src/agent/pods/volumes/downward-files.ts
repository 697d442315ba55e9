// The files of a downwardAPI volume or a projected volume's downwardAPI source: each item's
// value (fields, labels and annotations in the kubelet's format, resources in divisor units,
// unset limits as the node's allocatable) written again on every sync, so label and annotation
// changes reach running containers.

import { downwardValue } from '../downward-api.ts';
import type { PodFacts } from '../env.ts';
import type { Pod } from '../types.ts';
import type { PayloadFile } from '../atomic-writer.ts';
import type { CoreV1DownwardAPIVolumeFile } from '../../../schema/generated/types.ts';
import { checkPayloadPath } from './object-files.ts';

export function downwardFiles(pod: Pod, items: CoreV1DownwardAPIVolumeFile[] | undefined, defaultMode: number, facts: PodFacts): PayloadFile[] {
  return (items ?? []).map(i => {
    checkPayloadPath(i.path);
    return { path: i.path, content: Buffer.from(downwardValue(pod, i, facts)), mode: i.mode ?? defaultMode };
  });
}
