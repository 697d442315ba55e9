// The device manager's checkpoint, `<device-plugins dir>/agent_internal_checkpoint` (spec 001
// Appendix B), in the JSON the kubelet writes: {"Data":{"PodDeviceEntries":[...],
// "RegisteredDevices":{...}},"Checksum":N}. Each entry is one container's devices of one
// resource, by NUMA node ("-1" for devices without topology), with the plugin's Allocate answer
// as base64 protobuf. The checksum is the kubelet's: FNV-32a over the data as Go's spew prints
// it with %#v (type names included, map keys sorted), so either side can read the other's file.

import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const checkpointName = 'agent_internal_checkpoint';

export interface PodDevicesEntry {
  PodUID: string;
  ContainerName: string;
  ResourceName: string;
  /** NUMA node → device ids */
  DeviceIDs: Record<string, string[]> | null;
  /** base64 of the ContainerAllocateResponse bytes */
  AllocResp: string | null;
}

export interface CheckpointData {
  /** null when empty, as Go writes a nil slice */
  PodDeviceEntries: PodDevicesEntry[] | null;
  RegisteredDevices: Record<string, string[] | null> | null;
}

function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

const list = (a: string[] | null | undefined) => (a == null ? '<nil>' : `[${a.join(' ')}]`);
const numaKeys = (m: Record<string, unknown>) => Object.keys(m).map(Number).sort((a, b) => a - b);

function spewEntry(e: PodDevicesEntry): string {
  const ids = e.DeviceIDs == null ? '<nil>' : `map[${numaKeys(e.DeviceIDs).map(k => `${k}:${list(e.DeviceIDs![String(k)])}`).join(' ')}]`;
  const resp = e.AllocResp == null ? '<nil>' : `[${[...Buffer.from(e.AllocResp, 'base64')].join(' ')}]`;
  return `{PodUID:(string)${e.PodUID} ContainerName:(string)${e.ContainerName} ResourceName:(string)${e.ResourceName} DeviceIDs:(checkpoint.DevicesPerNUMA)${ids} AllocResp:([]uint8)${resp}}`;
}

/** the kubelet's checksum of the data: FNV-32a of spew's %#v, with the kubelet's type names */
export function checksum(d: CheckpointData): number {
  const entries = d.PodDeviceEntries == null ? '<nil>' : `[${d.PodDeviceEntries.map(spewEntry).join(' ')}]`;
  const reg = d.RegisteredDevices;
  const registered = reg == null ? '<nil>' : `map[${Object.keys(reg).sort().map(k => `${k}:${list(reg[k])}`).join(' ')}]`;
  return fnv32a(`(checkpoint.checkpointData){PodDeviceEntries:([]checkpoint.PodDevicesEntry)${entries} RegisteredDevices:(map[string][]string)${registered}}`);
}

// Go's encoding/json: map keys sorted as strings, and <, >, & escaped
const goString = (s: string) => JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const goList = (a: string[] | null | undefined) => (a == null ? 'null' : `[${a.map(goString).join(',')}]`);
const goMap = (m: Record<string, string[] | null> | null) => (m == null ? 'null' : `{${Object.keys(m).sort().map(k => `${goString(k)}:${goList(m[k])}`).join(',')}}`);
const goEntry = (e: PodDevicesEntry) =>
  `{"PodUID":${goString(e.PodUID)},"ContainerName":${goString(e.ContainerName)},"ResourceName":${goString(e.ResourceName)},"DeviceIDs":${goMap(e.DeviceIDs)},"AllocResp":${e.AllocResp == null ? 'null' : goString(e.AllocResp)}}`;

/** the file's bytes, as the kubelet's json.Marshal lays them out */
export function encodeCheckpoint(d: CheckpointData): string {
  const entries = d.PodDeviceEntries == null ? 'null' : `[${d.PodDeviceEntries.map(goEntry).join(',')}]`;
  return `{"Data":{"PodDeviceEntries":${entries},"RegisteredDevices":${goMap(d.RegisteredDevices)}},"Checksum":${checksum(d)}}`;
}

/** the kubelet's words; the two checksums ride along for the log */
export class CorruptCheckpointError extends Error {
  readonly actual: number;
  readonly expected: unknown;
  constructor(actual: number, expected: unknown) { super('checkpoint is corrupted'); this.actual = actual; this.expected = expected; }
}

export function decodeCheckpoint(text: string): CheckpointData {
  const parsed = JSON.parse(text) as { Data?: Partial<CheckpointData>; Checksum?: number };
  const data: CheckpointData = { PodDeviceEntries: parsed.Data?.PodDeviceEntries ?? null, RegisteredDevices: parsed.Data?.RegisteredDevices ?? null };
  const want = checksum(data);
  if (parsed.Checksum !== want) throw new CorruptCheckpointError(want, parsed.Checksum);
  return data;
}

/** written whole to a temporary file, then renamed over, so a crash never leaves half a file */
export async function writeCheckpoint(dir: string, d: CheckpointData): Promise<void> {
  const path = join(dir, checkpointName);
  await writeFile(`${path}.tmp`, encodeCheckpoint(d), { mode: 0o644 });
  await rename(`${path}.tmp`, path);
}

/** undefined when there is no checkpoint yet */
export async function readCheckpoint(dir: string): Promise<CheckpointData | undefined> {
  const text = await readFile(join(dir, checkpointName), 'utf8').catch((err: NodeJS.ErrnoException) => { if (err.code === 'ENOENT') return undefined; throw err; });
  return text === undefined ? undefined : decodeCheckpoint(text);
}
