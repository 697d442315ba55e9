// Projected volumes: ConfigMap, Secret, downward API and service account token sources written
// together into one directory (the token from the API server through the token manager, bound to
// the pod). Other sources (ClusterTrustBundle, podCertificate) are refused: a pod asking for one
// waits with CreateContainerConfigError naming the source, rather than running with a file missing.

import type { ObjectSource } from '../object-source.ts';
import type { PodFacts } from '../env.ts';
import type { Pod } from '../types.ts';
import type { PayloadFile } from '../atomic-writer.ts';
import type { CoreV1ProjectedVolumeSource, CoreV1ServiceAccountTokenProjection } from '../../../schema/generated/types.ts';
import { configError } from '../config-errors.ts';
import { downwardFiles } from './downward-files.ts';
import { checkPayloadPath, objectFiles } from './object-files.ts';
import { VolumeProblem } from './volume-error.ts';

/** the source a projected volume has that this agent cannot project, if any */
export function unsupportedSource(volume: string, source: CoreV1ProjectedVolumeSource): Error | undefined {
  for (const s of source.sources ?? []) {
    if (s.configMap || s.secret || s.downwardAPI || s.serviceAccountToken) continue;
    const type = Object.keys(s).find(k => (s as Record<string, unknown>)[k] != null) ?? 'empty';
    return configError(`projected volume ${JSON.stringify(volume)}: the ${type} source is not supported by this node agent yet`);
  }
  return undefined;
}

async function tokenFile(src: ObjectSource, pod: Pod, t: CoreV1ServiceAccountTokenProjection, mode: number): Promise<PayloadFile> {
  if (!src.serviceAccountToken) throw new Error('failed to fetch token: this node agent has no API server to ask');
  const ask = {
    namespace: pod.metadata.namespace ?? 'default',
    serviceAccount: pod.spec.serviceAccountName || 'default',
    audiences: t.audience ? [t.audience] : [],
    expirationSeconds: t.expirationSeconds ?? 3600,
    pod: { name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
  };
  let token: string;
  try {
    token = await src.serviceAccountToken(ask);
  } catch (err) {
    throw new Error(`failed to fetch token: ${(err as Error).message}`);
  }
  checkPayloadPath(t.path);
  return { path: t.path, content: Buffer.from(token), mode };
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
      else if (s.serviceAccountToken) files.push(await tokenFile(src, pod, s.serviceAccountToken, mode));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length === 1) throw new VolumeProblem(problems[0]!);
  if (problems.length > 1) throw new VolumeProblem(`[${problems.join(', ')}]`);
  return files;
}
