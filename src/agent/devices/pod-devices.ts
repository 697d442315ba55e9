// Which devices each pod's containers hold, per resource, with the plugin's answer to Allocate
// for them: what the checkpoint records, the pod resources API lists, and the container's
// runtime configuration receives. Pure: no I/O, so restore-from-checkpoint is a function.

import { qualifiedNameErrors } from '../../api/label-rules.ts';
import type { CriContainerConfig, CriInput } from '../cri/generated/cri-types.ts';
import type { PodDevicesEntry } from './checkpoint.ts';
import { decodeContainerResponse, encodeContainerResponse, type ContainerAllocateResponse } from './protos.ts';

/** the kubelet's IsExtendedResourceName: a name with a domain outside kubernetes.io, quota-qualified as requests.<name> */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/') || name.startsWith('requests.')) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

export interface Holding {
  /** NUMA node ("-1": none) → device ids */
  byNuma: Record<string, string[]>;
  response: ContainerAllocateResponse;
}

/** pod UID → container → resource → holding */
export type PodDevices = Map<string, Map<string, Map<string, Holding>>>;

export const holdingIds = (h: Holding) => Object.values(h.byNuma).flat();

export function setHolding(pd: PodDevices, podUID: string, container: string, resource: string, h: Holding): void {
  let byContainer = pd.get(podUID);
  if (!byContainer) pd.set(podUID, (byContainer = new Map()));
  let byResource = byContainer.get(container);
  if (!byResource) byContainer.set(container, (byResource = new Map()));
  byResource.set(resource, h);
}

/** resource → device ids held by any pod */
export function inUse(pd: PodDevices): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const byContainer of pd.values()) for (const byResource of byContainer.values()) for (const [r, h] of byResource) {
    const set = out.get(r) ?? new Set<string>();
    for (const id of holdingIds(h)) set.add(id);
    out.set(r, set);
  }
  return out;
}

export function toEntries(pd: PodDevices): PodDevicesEntry[] | null {
  const out: PodDevicesEntry[] = [];
  for (const [PodUID, byContainer] of pd) for (const [ContainerName, byResource] of byContainer) for (const [ResourceName, h] of byResource) {
    out.push({ PodUID, ContainerName, ResourceName, DeviceIDs: h.byNuma, AllocResp: encodeContainerResponse(h.response).toString('base64') });
  }
  return out.length ? out : null;
}

export function fromEntries(entries: PodDevicesEntry[] | null): PodDevices {
  const pd: PodDevices = new Map();
  for (const e of entries ?? []) {
    const response = decodeContainerResponse(Buffer.from(e.AllocResp ?? '', 'base64'));
    setHolding(pd, e.PodUID, e.ContainerName, e.ResourceName, { byNuma: e.DeviceIDs ?? {}, response });
  }
  return pd;
}

/** what the container's runtime configuration gets from its devices */
export interface DeviceRunOptions {
  envs: Array<{ key: string; value: string }>;
  mounts: Array<{ containerPath: string; hostPath: string; readonly: boolean }>;
  devices: Array<{ containerPath: string; hostPath: string; permissions: string }>;
  annotations: Record<string, string>;
  cdiDevices: Array<{ name: string }>;
}

/**
 * the answers of every resource the container holds, merged as the kubelet merges them: one
 * value per variable, annotation, mount path, device path and CDI name (the first resource in
 * name order wins a clash)
 */
export function runOptions(byResource: Map<string, Holding> | undefined): DeviceRunOptions | undefined {
  if (!byResource?.size) return undefined;
  const envs = new Map<string, string>();
  const mounts = new Map<string, DeviceRunOptions['mounts'][number]>();
  const devices = new Map<string, DeviceRunOptions['devices'][number]>();
  const annotations: Record<string, string> = {};
  const cdi = new Set<string>();
  for (const r of [...byResource.keys()].sort()) {
    const resp = byResource.get(r)!.response;
    for (const [k, v] of Object.entries(resp.envs ?? {})) if (!envs.has(k)) envs.set(k, v);
    for (const m of resp.mounts ?? []) if (!mounts.has(m.containerPath)) mounts.set(m.containerPath, { containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readOnly });
    for (const d of resp.devices ?? []) if (!devices.has(d.containerPath)) devices.set(d.containerPath, { containerPath: d.containerPath, hostPath: d.hostPath, permissions: d.permissions });
    for (const [k, v] of Object.entries(resp.annotations ?? {})) if (!(k in annotations)) annotations[k] = v;
    for (const c of resp.cdiDevices ?? []) cdi.add(c.name);
  }
  return {
    envs: [...envs].map(([key, value]) => ({ key, value })),
    mounts: [...mounts.values()],
    devices: [...devices.values()],
    annotations,
    cdiDevices: [...cdi].map(name => ({ name })),
  };
}

/**
 * a container's runtime configuration with its devices, as the kubelet gives them: the plugins'
 * variables and mounts before the container's own (a variable the container sets itself wins),
 * their annotations under the agent's own, device nodes and CDI devices as they are
 */
export function withDevices(config: CriInput<CriContainerConfig>, opts: DeviceRunOptions | undefined): CriInput<CriContainerConfig> {
  if (!opts) return config;
  return {
    ...config,
    envs: [...opts.envs.map(e => ({ key: e.key, value: Buffer.from(e.value) })), ...(config.envs ?? [])],
    mounts: [...opts.mounts.map(m => ({ ...m, propagation: 'PROPAGATION_PRIVATE' as const })), ...(config.mounts ?? [])],
    devices: [...(config.devices ?? []), ...opts.devices],
    annotations: { ...opts.annotations, ...(config.annotations ?? {}) },
    CDIDevices: [...(config.CDIDevices ?? []), ...opts.cdiDevices],
  };
}
