// The resource checkpoints of appendix B, kept in the root directory while the
// InPlacePodVerticalScaling gate is on: `allocated_pods_state` (the resources the agent admitted
// each pod with) and `actuated_pods_state` (what the runtime was given when each container
// started). Each file is one JSON document with a checksum over its data, replaced atomically,
// so a crash leaves the old file or the new one; a file whose checksum does not match is
// ignored rather than trusted.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../pki/atomic-write.ts';
import type { Pod } from './types.ts';
import type { Quantity } from '../../schema/generated/types.ts';

export type ResourceStateName = 'allocated_pods_state' | 'actuated_pods_state';
/** pod UID → container name → its resources */
export type PodResources = Record<string, Record<string, { requests?: Record<string, Quantity>; limits?: Record<string, Quantity> }>>;

/** FNV-1a, 32 bits: cheap and enough to tell a torn or edited file */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export async function loadResourceState(rootDir: string, name: ResourceStateName): Promise<PodResources> {
  let text: string;
  try { text = await readFile(join(rootDir, name), 'utf8'); } catch { return {}; }
  try {
    const doc = JSON.parse(text);
    if (fnv32a(JSON.stringify(doc.data)) !== doc.checksum) return {};
    return doc.data?.entries ?? {};
  } catch {
    return {};
  }
}

export function podResources(pod: Pod): PodResources[string] {
  const out: PodResources[string] = {};
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) out[c.name] = { requests: c.resources?.requests, limits: c.resources?.limits };
  return out;
}

export interface ResourceStateFile {
  get(uid: string): PodResources[string] | undefined;
  set(uid: string, resources: PodResources[string]): void;
  remove(uid: string): void;
  /** resolves when what was set so far is on disk */
  flush(): Promise<void>;
}

/** one file, rewritten after changes (several changes close together share a write) */
export async function resourceStateFile(rootDir: string, name: ResourceStateName): Promise<ResourceStateFile> {
  const entries = await loadResourceState(rootDir, name);
  let writing: Promise<void> = Promise.resolve();
  let dirty = false;
  const save = () => {
    if (dirty) return;
    dirty = true;
    writing = writing.then(async () => {
      dirty = false;
      const data = { entries };
      await writeFileAtomic(join(rootDir, name), JSON.stringify({ data, checksum: fnv32a(JSON.stringify(data)) }), 0o600);
    });
  };
  return {
    get: uid => entries[uid],
    set(uid, resources) {
      if (JSON.stringify(entries[uid]) === JSON.stringify(resources)) return;
      entries[uid] = resources;
      save();
    },
    remove(uid) {
      if (!(uid in entries)) return;
      delete entries[uid];
      save();
    },
    flush: () => writing,
  };
}
