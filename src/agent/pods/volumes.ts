// Pod volumes on the host, under <root>/pods/<uid>/volumes/<plugin>/<name>, as the kubelet lays
// them out: emptyDir directories (a tmpfs for medium Memory), hostPath paths checked against
// their type (made when the type asks), ConfigMap, Secret, downward API and projected contents
// written as files by the atomic writer on every sync (updates appear in running containers).
// Other volume types are refused with a config error rather than started without the data the
// pod expects.

import { execFile } from 'node:child_process';
import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseQuantity } from '../../api/quantity.ts';
import { downwardValue } from './downward-api.ts';
import type { PodFacts } from './env.ts';
import { configError } from './config-errors.ts';
import { kindWord, objectData, type ObjectSource } from './object-source.ts';
import type { Pod } from './types.ts';
import { writeAtomically, type PayloadFile } from './atomic-writer.ts';
import type { CoreV1DownwardAPIVolumeFile, CoreV1KeyToPath } from '../../schema/generated/types.ts';

const execFileAsync = promisify(execFile);

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

/** the kubelet's check of a hostPath of the given type; creates what the *OrCreate types ask for */
async function checkHostPath(p: string, type: string): Promise<void> {
  if (type === 'DirectoryOrCreate') { await mkdir(p, { recursive: true, mode: 0o755 }); return; }
  if (type === 'FileOrCreate') {
    if (!(await exists(p))) await writeFile(p, '', { mode: 0o644 });
    else if (!(await lstat(p).then(st => st.isFile() || st.isSymbolicLink()))) throw configError(`hostPath type check failed: ${p} is not a file`);
    return;
  }
  if (!type) return;
  const st = await stat(p).catch(() => undefined);
  const want: Record<string, [(s: Stats) => boolean, string]> = {
    Directory: [s => s.isDirectory(), 'directory'],
    File: [s => s.isFile(), 'file'],
    Socket: [s => s.isSocket(), 'socket file'],
    CharDevice: [s => s.isCharacterDevice(), 'character device'],
    BlockDevice: [s => s.isBlockDevice(), 'block device'],
  };
  const check = want[type];
  if (!check) throw configError(`hostPath type ${type} is not supported`);
  if (!st || !check[0](st)) throw configError(`hostPath type check failed: ${p} is not a ${check[1]}`);
}

/** a ConfigMap's or Secret's files, or none for a missing optional one; a missing key is an error unless optional */
async function objectFiles(src: ObjectSource, pod: Pod, kind: 'configmaps' | 'secrets', name: string, items: CoreV1KeyToPath[] | undefined, optional: boolean | undefined, mode: number): Promise<PayloadFile[]> {
  const obj = await src.get(kind, pod.metadata.namespace, name);
  if (!obj) {
    if (optional) return [];
    throw configError(`${kindWord(kind)} "${name}" not found`);
  }
  const data = objectData(kind, obj);
  for (const i of items ?? []) {
    if (!data.has(i.key) && !optional) throw configError(`${kind === 'configmaps' ? 'configmap' : 'secret'} references non-existent ${kind === 'configmaps' ? 'config ' : 'secret '}key: ${i.key}`);
  }
  return payload(data, items, mode);
}

function downwardFiles(pod: Pod, items: CoreV1DownwardAPIVolumeFile[] | undefined, mode: number, facts: PodFacts): PayloadFile[] {
  return (items ?? []).map(i => {
    if (i.path.split('/').includes('..')) throw configError(`invalid path "${i.path}": must not contain '..'`);
    return { path: i.path, content: Buffer.from(downwardValue(pod, i, facts)), mode: i.mode ?? mode };
  });
}

/** a memory-backed emptyDir: a tmpfs, sized by its sizeLimit, mounted once */
async function mountTmpfs(p: string, sizeLimit: unknown): Promise<void> {
  const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
  if (mounts.split('\n').some(l => l.split(' ')[1] === p)) return;
  const size = parseQuantity(sizeLimit);
  const opts = ['mode=0777', ...(size ? [`size=${Math.ceil(size)}`] : [])].join(',');
  try {
    await execFileAsync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', p]);
  } catch (err) {
    throw configError(`MountVolume.SetUp failed for volume "${p.split('/').pop()}" : mount failed: ${(err as Error).message.trim()}`);
  }
}

export async function prepareVolumes(pod: Pod, rootDir: string, src: ObjectSource, facts: PodFacts = { podIPs: [], hostIPs: [] }): Promise<Map<string, PreparedVolume>> {
  const out = new Map<string, PreparedVolume>();
  const base = join(podDir(rootDir, pod.metadata.uid), 'volumes');
  for (const v of pod.spec.volumes ?? []) {
    if (v.emptyDir) {
      const p = join(base, 'kubernetes.io~empty-dir', v.name);
      await mkdir(p, { recursive: true });
      if (v.emptyDir.medium === 'Memory') await mountTmpfs(p, v.emptyDir.sizeLimit);
      await chmod(p, 0o777);
      out.set(v.name, { hostPath: p, readOnly: false });
    } else if (v.hostPath) {
      const p = String(v.hostPath.path);
      await checkHostPath(p, v.hostPath.type ?? '');
      out.set(v.name, { hostPath: p, readOnly: false });
    } else if (v.configMap || v.secret) {
      const kind = v.configMap ? 'configmaps' : 'secrets';
      const ref = (v.configMap ?? v.secret)!;
      const name = (v.configMap ? v.configMap.name : v.secret!.secretName) ?? '';
      const p = join(base, kind === 'configmaps' ? 'kubernetes.io~configmap' : 'kubernetes.io~secret', v.name);
      await writeAtomically(p, await objectFiles(src, pod, kind, name, ref.items, ref.optional, ref.defaultMode ?? 0o644));
      out.set(v.name, { hostPath: p, readOnly: true });
    } else if (v.downwardAPI) {
      const p = join(base, 'kubernetes.io~downward-api', v.name);
      await writeAtomically(p, downwardFiles(pod, v.downwardAPI.items, v.downwardAPI.defaultMode ?? 0o644, facts));
      out.set(v.name, { hostPath: p, readOnly: true });
    } else if (v.projected) {
      const mode = v.projected.defaultMode ?? 0o644;
      const files: PayloadFile[] = [];
      for (const s of v.projected.sources ?? []) {
        if (s.configMap) files.push(...await objectFiles(src, pod, 'configmaps', s.configMap.name ?? '', s.configMap.items, s.configMap.optional, mode));
        else if (s.secret) files.push(...await objectFiles(src, pod, 'secrets', s.secret.name ?? '', s.secret.items, s.secret.optional, mode));
        else if (s.downwardAPI) files.push(...downwardFiles(pod, s.downwardAPI.items, mode, facts));
        else {
          const type = Object.keys(s)[0] ?? 'unknown';
          // service account tokens come with authentication (not built yet): said plainly, not left empty
          throw configError(`projected volume "${v.name}": the ${type} source is not supported by this node agent yet`);
        }
      }
      const p = join(base, 'kubernetes.io~projected', v.name);
      await writeAtomically(p, files);
      out.set(v.name, { hostPath: p, readOnly: true });
    } else {
      const type = Object.keys(v).find(k => k !== 'name') ?? 'unknown';
      throw configError(`volume "${v.name}" has a type (${type}) this node agent does not support`);
    }
  }
  return out;
}

export async function removePodDir(rootDir: string, uid: string): Promise<void> {
  const dir = podDir(rootDir, uid);
  // memory-backed emptyDirs are unmounted first, or their contents (and the memory) would stay
  const mounts = await readFile('/proc/self/mounts', 'utf8').catch(() => '');
  for (const line of mounts.split('\n')) {
    const target = line.split(' ')[1];
    if (target?.startsWith(`${dir}/`)) await execFileAsync('umount', [target]).catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
}
