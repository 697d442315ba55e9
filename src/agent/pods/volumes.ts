// Pod volumes on the host, under <root>/pods/<uid>/volumes/<plugin>/<name>, as the kubelet lays
// them out: emptyDir directories, hostPath paths (made when the type asks), ConfigMap and Secret
// contents written as files by the atomic writer (updates appear in running containers). Other volume types are refused with a config error rather than
// started without the data the pod expects.

import { chmod, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { configError } from './config-errors.ts';
import { kindWord, objectData, type ObjectSource } from './object-source.ts';
import type { Pod } from './types.ts';
import { writeAtomically, type PayloadFile } from './atomic-writer.ts';
import type { CoreV1KeyToPath } from '../../schema/generated/types.ts';

export interface PreparedVolume { hostPath: string; readOnly: boolean }

export const podDir = (rootDir: string, uid: string) => join(rootDir, 'pods', uid);

async function exists(p: string): Promise<boolean> {
  try { await stat(p); return true; } catch { return false; }
}

/** the files a ConfigMap or Secret volume shows: every key, or the items asked for */
function payload(data: Map<string, Buffer>, items: CoreV1KeyToPath[] | undefined, mode: number): PayloadFile[] {
  const entries = items?.length ? items.map(i => [i.path, data.get(i.key), i.mode] as const) : [...data].map(([k, v]) => [k, v, undefined] as const);
  const files: PayloadFile[] = [];
  for (const [path, content, itemMode] of entries) {
    if (content === undefined) continue;
    if (path.split('/').includes('..')) throw configError(`invalid path "${path}": must not contain '..'`);
    files.push({ path, content, mode: itemMode ?? mode });
  }
  return files;
}

export async function prepareVolumes(pod: Pod, rootDir: string, src: ObjectSource): Promise<Map<string, PreparedVolume>> {
  const out = new Map<string, PreparedVolume>();
  const base = join(podDir(rootDir, pod.metadata.uid), 'volumes');
  for (const v of pod.spec.volumes ?? []) {
    if (v.emptyDir) {
      const p = join(base, 'kubernetes.io~empty-dir', v.name);
      await mkdir(p, { recursive: true });
      await chmod(p, 0o777);
      out.set(v.name, { hostPath: p, readOnly: false });
    } else if (v.hostPath) {
      const p = String(v.hostPath.path);
      const type = v.hostPath.type ?? '';
      if (type === 'DirectoryOrCreate') await mkdir(p, { recursive: true });
      else if (type === 'FileOrCreate' && !(await exists(p))) { await mkdir(dirname(p), { recursive: true }); await writeFile(p, ''); }
      else if (type && !(await exists(p))) throw configError(`hostPath type check failed: ${p} is not a ${type === 'Directory' ? 'directory' : type === 'File' ? 'file' : type}`);
      out.set(v.name, { hostPath: p, readOnly: false });
    } else if (v.configMap || v.secret) {
      const kind = v.configMap ? 'configmaps' : 'secrets';
      const ref = (v.configMap ?? v.secret)!;
      const name = (v.configMap ? v.configMap.name : v.secret!.secretName) ?? '';
      const obj = await src.get(kind, pod.metadata.namespace, name);
      const p = join(base, kind === 'configmaps' ? 'kubernetes.io~configmap' : 'kubernetes.io~secret', v.name);
      if (!obj && !ref.optional) throw configError(`${kindWord(kind)} "${name}" not found`);
      await writeAtomically(p, payload(obj ? objectData(kind, obj) : new Map(), ref.items, ref.defaultMode ?? 0o644));
      out.set(v.name, { hostPath: p, readOnly: true });
    } else {
      const type = Object.keys(v).find(k => k !== 'name') ?? 'unknown';
      throw configError(`volume "${v.name}" has a type (${type}) this node agent does not support`);
    }
  }
  return out;
}

export async function removePodDir(rootDir: string, uid: string): Promise<void> {
  await rm(podDir(rootDir, uid), { recursive: true, force: true });
}
