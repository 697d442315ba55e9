// Static pods: Pod manifests in a directory on the node, run by the agent without the API. Each
// becomes a pod named <name>-<node> with a UID derived from its content and the annotations the
// kubelet gives file pods; the API sees it as a mirror pod carrying the same hash.

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { yamlLibrary } from '../../api/yaml-library.ts';
import { defaultPullPolicy } from './images.ts';
import type { Pod } from './types.ts';
import type { CoreV1Pod, CoreV1PodSpec } from '../../schema/generated/types.ts';
import { rfc3339 } from '../../api/time.ts';

export const CONFIG_SOURCE = 'kubernetes.io/config.source';
export const CONFIG_HASH = 'kubernetes.io/config.hash';
export const CONFIG_MIRROR = 'kubernetes.io/config.mirror';
export const CONFIG_SEEN = 'kubernetes.io/config.seen';

export const isMirrorPod = (pod: Pod) => !!pod.metadata.annotations?.[CONFIG_MIRROR];

/** the defaults the API server would have filled, for pods that never pass through it */
function defaults(spec: CoreV1PodSpec): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    c.imagePullPolicy ??= defaultPullPolicy(String(c.image ?? ''));
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
  }
  // static pods stay on their node whatever its taints say
  spec.tolerations = [...(spec.tolerations ?? []), { operator: 'Exists', effect: 'NoExecute' }];
}

export function staticPod(doc: unknown, nodeName: string, seenAt: number): Pod {
  // a manifest is checked before it is trusted as a Pod
  const d = doc as CoreV1Pod | null;
  if (!d || typeof d !== 'object' || d.kind !== 'Pod' || (d.apiVersion ?? 'v1') !== 'v1') throw new Error('the manifest is not a v1 Pod');
  if (!d.metadata?.name) throw new Error('the manifest has no metadata.name');
  if (!Array.isArray(d.spec?.containers) || d.spec.containers.length === 0) throw new Error('the manifest has no containers');
  const hash = createHash('md5').update(JSON.stringify(d)).update(nodeName).update('file').digest('hex');
  const name = `${d.metadata.name}-${nodeName.toLowerCase()}`;
  const spec = structuredClone(d.spec);
  defaults(spec);
  spec.nodeName = nodeName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...structuredClone(d.metadata),
      name,
      namespace: d.metadata.namespace || 'default',
      uid: hash,
      annotations: { ...(d.metadata.annotations ?? {}), [CONFIG_SOURCE]: 'file', [CONFIG_HASH]: hash, [CONFIG_SEEN]: rfc3339(seenAt) },
    },
    spec,
    status: { phase: 'Pending' },
  };
}

/** every manifest in the directory; unreadable ones are reported and skipped */
export async function readStaticPods(dir: string, nodeName: string, now: number, onError: (file: string, err: string) => void): Promise<Pod[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(n => !n.startsWith('.') && /\.(ya?ml|json)$/.test(n)).sort();
  } catch {
    return [];
  }
  const out: Pod[] = [];
  for (const n of names) {
    try {
      out.push(staticPod(yamlLibrary().parse(await readFile(join(dir, n), 'utf8')), nodeName, now));
    } catch (err) {
      onError(join(dir, n), (err as Error).message);
    }
  }
  return out;
}

/** the API object standing for a static pod */
export function mirrorPod(pod: Pod, node: { name: string; uid?: string }): CoreV1Pod {
  const { uid: _uid, resourceVersion: _rv, ...meta } = pod.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      annotations: { ...(pod.metadata.annotations ?? {}), [CONFIG_MIRROR]: pod.metadata.annotations?.[CONFIG_HASH] ?? '' },
      ...(node.uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true }] } : {}),
    },
    spec: pod.spec,
  };
}
