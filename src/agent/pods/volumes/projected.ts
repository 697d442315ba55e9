// Projected volumes: ConfigMap, Secret and downward API sources written together into one
// directory. Service account tokens come with authentication, which orch does not have yet: a
// pod asking for one waits with CreateContainerConfigError naming the source, rather than
// running with a token file missing. Other sources (ClusterTrustBundle, podCertificate) are
// refused the same way.

import type { ObjectSource } from '../object-source.ts';
import type { PodFacts } from '../env.ts';
import type { Pod } from '../types.ts';
import type { PayloadFile } from '../atomic-writer.ts';
import type { CoreV1ProjectedVolumeSource } from '../../../schema/generated/types.ts';
import { configError } from '../config-errors.ts';
import { downwardFiles } from './downward-files.ts';
import { objectFiles } from './object-files.ts';
import { VolumeProblem } from './volume-error.ts';

/** the source a projected volume has that this agent cannot project, if any */
export function unsupportedSource(volume: string, source: CoreV1ProjectedVolumeSource): Error | undefined {
  for (const s of source.sources ?? []) {
    if (s.configMap || s.secret || s.downwardAPI) continue;
    const type = Object.keys(s).find(k => (s as Record<string, unknown>)[k] != null) ?? 'empty';
    return configError(`projected volume ${JSON.stringify(volume)}: the ${type} source is not supported by this node agent yet`);
  }
  return undefined;
}

export async function projectedFiles(src: ObjectSource, pod: Pod, source: CoreV1ProjectedVolumeSource, facts: PodFacts): Promise<PayloadFile[]> {
  const mode = source.defaultMode ?? 0o644;
  const files: PayloadFile[] = [];
  // every source's problem is told, as the kubelet aggregates them
  const problems: string[] = [];
  for (const s of source.sources ?? []) {
    try {
      if (s.configMap) files.push(...await objectFiles(src, pod, { kind: 'configmaps', name: s.configMap.name ?? '', items: s.configMap.items, optional: s.configMap.optional }, mode));
      else if (s.secret) files.push(...await objectFiles(src, pod, { kind: 'secrets', name: s.secret.name ?? '', items: s.secret.items, optional: s.secret.optional }, mode));
      else if (s.downwardAPI) files.push(...downwardFiles(pod, s.downwardAPI.items, mode, facts));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length === 1) throw new VolumeProblem(problems[0]!);
  if (problems.length > 1) throw new VolumeProblem(`[${problems.join(', ')}]`);
  return files;
}
