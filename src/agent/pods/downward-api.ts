// The files of a downwardAPI volume (or a projected volume's downwardAPI source): each item's
// field or resource value as text, labels and annotations as `key="value"` lines in key order,
// as the kubelet writes them, so that they can be rewritten as they change.

import { goQuote } from '../../api/selectors/go-quote.ts';
import { configError } from './config-errors.ts';
import { fieldValue, resourceField, type PodFacts } from './env.ts';
import type { Pod } from './types.ts';
import type { CoreV1DownwardAPIVolumeFile } from '../../schema/generated/types.ts';

/** a map as the kubelet formats it in a file: sorted keys, quoted values, no trailing newline */
function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {}).sort().map(k => `${k}=${goQuote(m![k]!)}`).join('\n');
}

/** the text of one downward API item */
export function downwardValue(pod: Pod, item: CoreV1DownwardAPIVolumeFile, facts: PodFacts): string {
  if (item.fieldRef) {
    const path = item.fieldRef.fieldPath;
    if (path === 'metadata.labels') return formatMap(pod.metadata.labels);
    if (path === 'metadata.annotations') return formatMap(pod.metadata.annotations);
    return fieldValue(pod, path, facts);
  }
  if (item.resourceFieldRef) {
    const name = item.resourceFieldRef.containerName;
    const c = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find(x => x.name === name);
    if (!c) throw configError(`container "${name ?? ''}" not found in pod for resourceFieldRef of ${item.path}`);
    return resourceField(c, item.resourceFieldRef, facts.nodeAllocatable);
  }
  throw configError(`downward API item ${item.path} names neither a field nor a resource`);
}
