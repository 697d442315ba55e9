// The resource checkpoints of appendix B, kept in the root directory while the
// InPlacePodVerticalScaling gate is on: `allocated_pods_state` (the resources the agent admitted
// each pod with) and `actuated_pods_state` (what the runtime was given when each container
// started or was last resized). Each file is laid out as the kubelet's checkpoint manager writes
// its state checkpoints, so the files read alike on either agent: `{"data": <the entries as a JSON
// string>, "checksum": <FNV-32a of that string as Go's deep hash prints it>}`. Files are replaced
// atomically, so a crash leaves the old file or the new one; a file that does not parse or whose
// checksum does not match stops the start, as it stops the kubelet's, rather than being trusted
// or silently dropped (a resize in flight would be forgotten).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../pki/atomic-write.ts';
import { canonicalQuantity } from '../../api/quantity.ts';
import { goString } from '../../codec/go-json.ts';
import type { Pod } from './types.ts';
import type { Quantity } from '../../schema/generated/types.ts';

export type ResourceStateName = 'allocated_pods_state' | 'actuated_pods_state';
type Requirements = { requests?: Record<string, Quantity>; limits?: Record<string, Quantity> };
/** pod UID → container name → its resources */
export type PodResources = Record<string, Record<string, Requirements>>;

/** FNV-1a, 32 bits */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The checksum the kubelet stores beside a checkpoint's data: its deep hash prints a string as
 * go-spew's `%#v` does, the type in parentheses and then the bytes, and hashes that.
 */
export function checkpointChecksum(data: string): number {
  return fnv32a(`(string)${data}`);
}

const sortedKeys = (o: object) => Object.keys(o).sort();

/** a resource list as Go's encoder writes a map of quantities: keys sorted, canonical values */
function resourceList(list: Record<string, Quantity>): string {
  return `{${sortedKeys(list).map(k => `${goString(k)}:${goString(canonicalQuantity(list[k]) ?? String(list[k]))}`).join(',')}}`;
}

/** v1.ResourceRequirements: limits then requests, each left out when empty */
function requirements(r: Requirements): string {
  const parts: string[] = [];
  if (r.limits && Object.keys(r.limits).length) parts.push(`"limits":${resourceList(r.limits)}`);
  if (r.requests && Object.keys(r.requests).length) parts.push(`"requests":${resourceList(r.requests)}`);
  return `{${parts.join(',')}}`;
}

/**
 * The checkpoint's data: PodResourceCheckpointInfo with its entries keyed by pod UID, each a
 * PodResourceInfo (fields without JSON tags, so written under their Go names; orch records no
 * pod-level resources, which Go writes as null).
 */
export function checkpointData(entries: PodResources): string {
  const uids = sortedKeys(entries);
  if (!uids.length) return '{}';
  const pod = (containers: Record<string, Requirements>) =>
    `{"ContainerResources":{${sortedKeys(containers).map(n => `${goString(n)}:${requirements(containers[n]!)}`).join(',')}},"PodLevelResources":null}`;
  return `{"entries":{${uids.map(uid => `${goString(uid)}:${pod(entries[uid]!)}`).join(',')}}}`;
}

/** the whole file, as Go's encoder writes the Checkpoint struct */
export function checkpointFile(entries: PodResources): string {
  const data = checkpointData(entries);
  return `{"data":${goString(data)},"checksum":${checkpointChecksum(data)}}`;
}

/** the entries of a checkpoint file; throws, in the kubelet's words, when it is corrupt */
export function parseCheckpointFile(text: string): PodResources {
  const doc = JSON.parse(text) as { data?: unknown; checksum?: unknown };
  if (typeof doc.data !== 'string') {
    const kind = Array.isArray(doc.data) ? 'array' : doc.data === null ? 'null' : typeof doc.data === 'boolean' ? 'bool' : typeof doc.data;
    throw new Error(`json: cannot unmarshal ${kind} into Go struct field Checkpoint.data of type string`);
  }
  if (doc.checksum !== checkpointChecksum(doc.data)) throw new Error('checkpoint is corrupted');
  const info = JSON.parse(doc.data) as { entries?: Record<string, { ContainerResources?: Record<string, Requirements> | null }> };
  const out: PodResources = {};
  for (const [uid, pod] of Object.entries(info.entries ?? {})) out[uid] = pod.ContainerResources ?? {};
  return out;
}

export async function loadResourceState(rootDir: string, name: ResourceStateName): Promise<PodResources> {
  const path = join(rootDir, name);
  let text: string;
  try { text = await readFile(path, 'utf8'); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    return parseCheckpointFile(text);
  } catch (err) {
    throw new Error(`could not restore state from checkpoint: ${(err as Error).message}, please drain this node and delete pod resource information checkpoint file "${path}" before restarting Kubelet`);
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
      await writeFileAtomic(join(rootDir, name), checkpointFile(entries), 0o600);
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
