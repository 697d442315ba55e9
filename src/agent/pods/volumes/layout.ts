// Where a pod's volumes live on the host, as the kubelet lays them out:
// <root>/pods/<uid>/volumes/<plugin>/<volume name>, the plugin named as Kubernetes names it.
// hostPath volumes have no directory here: they are the host's own path.

import { join } from 'node:path';

export const podDir = (rootDir: string, uid: string) => join(rootDir, 'pods', uid);

export const volumesDir = (rootDir: string, uid: string) => join(podDir(rootDir, uid), 'volumes');

/** the kubelet's directory name for each volume type that keeps its files under the pod */
export const pluginDir = {
  emptyDir: 'kubernetes.io~empty-dir',
  configMap: 'kubernetes.io~configmap',
  secret: 'kubernetes.io~secret',
  downwardAPI: 'kubernetes.io~downward-api',
  projected: 'kubernetes.io~projected',
} as const;

export type PluginType = keyof typeof pluginDir;

export const volumeDir = (rootDir: string, uid: string, type: PluginType, name: string) => join(volumesDir(rootDir, uid), pluginDir[type], name);
