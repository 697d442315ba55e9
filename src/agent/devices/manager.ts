// The device manager: plugins register resources (registration-server.ts, plugin-watcher.ts),
// their ListAndWatch lists become node capacity (all devices) and allocatable (healthy ones),
// pods are admitted only with free devices, and what each container got is checkpointed on
// every change and read back after a restart so allocations survive it.
//
// A plugin that goes away leaves its devices counted but unhealthy (allocatable 0) for the
// kubelet's grace of 5 minutes, in case it comes back; after that the resource is reported as 0,
// as the kubelet zeroes a removed resource rather than dropping it from the Node.

import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../api/log.ts';
import type { Clock } from '../clock.ts';
import type { Container, Pod } from '../pods/types.ts';
import { checkpointName, readCheckpoint, writeCheckpoint } from './checkpoint.ts';
import { chooseDevices } from './choose.ts';
import { connectPlugin, type PluginEndpoint } from './plugin-endpoint.ts';
import { fromEntries, holdingIds, inUse, runOptions, setHolding, toEntries, type DeviceRunOptions, type PodDevices } from './pod-devices.ts';
import { Healthy, type Device } from './protos.ts';

export const endpointStopGraceMs = 5 * 60_000;

interface Resource {
  devices: Map<string, Device>;
  endpoint?: PluginEndpoint;
  /** when its plugin went away (or, read from the checkpoint, when the agent started) */
  stoppedAt?: number;
}

export type Verdict = { admit: true } | { admit: false; reason: string; message: string };

export interface DeviceManagerOptions {
  dir: string;
  /** UIDs of the pods that may still hold devices; undefined until the pod sources are read */
  activePods: () => Set<string> | undefined;
  /** devices changed: the node status is due */
  onChange: () => void;
  clock: Clock;
  log: Logger;
  stopGraceMs?: number;
}

export interface DeviceManager {
  /** connects to a plugin's socket for a resource (after validation), replacing an earlier one */
  connect(resource: string, socket: string): Promise<void>;
  /** drops a plugin that went away, as if its stream ended */
  disconnect(resource: string, socket: string): void;
  capacity(): { capacity: Record<string, string>; allocatable: Record<string, string> };
  admit(pod: Pod): Promise<Verdict>;
  runOptions(pod: Pod, c: Container): Promise<DeviceRunOptions | undefined>;
  /** container → resource → device ids (pod resources API) */
  podDevices(podUID: string): Map<string, Map<string, Device[]>>;
  /** resource → healthy devices */
  allocatable(): Map<string, Device[]>;
  stop(): void;
}

const isInitOnly = (pod: Pod, name: string) => (pod.spec.initContainers ?? []).some(c => c.name === name && c.restartPolicy !== 'Always');

export async function startDeviceManager(o: DeviceManagerOptions): Promise<DeviceManager> {
  const grace = o.stopGraceMs ?? endpointStopGraceMs;
  const resources = new Map<string, Resource>();
  const removed = new Set<string>();
  let pods: PodDevices = new Map();
  await mkdir(o.dir, { recursive: true, mode: 0o750 });
  try {
    const cp = await readCheckpoint(o.dir);
    if (cp) {
      pods = fromEntries(cp.PodDeviceEntries);
      // known, with no devices, until their plugins register again
      for (const r of Object.keys(cp.RegisteredDevices ?? {})) resources.set(r, { devices: new Map(), stoppedAt: o.clock.now() });
    }
  } catch (err) {
    o.log.warn('Continue after failing to read checkpoint file. Device allocation info may NOT be up-to-date', { err: String(err) });
  }
  // stale sockets go, so plugins watching the directory see the agent restarted and register again
  for (const name of await readdir(o.dir)) {
    if (name === checkpointName) continue;
    const path = join(o.dir, name);
    const st = await stat(path).catch(() => undefined);
    if (st?.isSocket()) await rm(path, { force: true });
  }

  let writing = Promise.resolve();
  const checkpoint = () => {
    const registered: Record<string, string[]> = {};
    for (const [r, res] of resources) registered[r] = [...res.devices.values()].filter(d => d.health === Healthy).map(d => d.ID);
    const data = { PodDeviceEntries: toEntries(pods), RegisteredDevices: registered };
    writing = writing.then(() => writeCheckpoint(o.dir, data)).catch(err => o.log.warn('Failed to write checkpoint file', { err: String(err) }));
    return writing;
  };
  const timers = new Set<{ cancel(): void }>();
  const changed = () => { o.onChange(); };

  function pluginGone(resource: string, ep: PluginEndpoint, why: string): void {
    const res = resources.get(resource);
    if (!res || res.endpoint !== ep) return;
    ep.close();
    res.endpoint = undefined;
    res.stoppedAt = o.clock.now();
    for (const d of res.devices.values()) d.health = 'Unhealthy';
    o.log.info('device plugin went away; its devices are unhealthy', { resource, why });
    // after the grace the next status removes the resource
    const t = o.clock.after(grace + 1, () => { timers.delete(t); changed(); });
    timers.add(t);
    void checkpoint();
    changed();
  }

  /** frees what pods that ended held (the kubelet's UpdateAllocatedDevices) */
  function release(): boolean {
    const active = o.activePods();
    if (!active) return false;
    let any = false;
    for (const uid of [...pods.keys()]) if (!active.has(uid)) { pods.delete(uid); any = true; }
    return any;
  }

  let admitting: Promise<unknown> = Promise.resolve();
  async function allocatePod(pod: Pod): Promise<void> {
    const uid = pod.metadata.uid;
    const reusable = new Map<string, Set<string>>();
    let changedAny = release();
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      for (const [resource, q] of Object.entries(c.resources?.limits ?? {})) {
        if (!resources.has(resource) && !inUse(pods).has(resource)) continue;
        const res = resources.get(resource);
        const held = pods.get(uid)?.get(c.name)?.get(resource);
        const healthy = res ? new Set([...res.devices.values()].filter(d => d.health === Healthy).map(d => d.ID)) : undefined;
        const ep = res?.endpoint;
        const ids = await chooseDevices({
          resource, needed: Number.parseInt(String(q), 10), held: held ? holdingIds(held) : undefined, healthy,
          inUse: inUse(pods).get(resource) ?? new Set(), reusable: reusable.get(resource) ?? new Set(), podUID: uid, container: c.name,
          preferred: ep?.options.getPreferredAllocationAvailable ? (a, m, n) => ep.preferred(a, m, n) : undefined,
        });
        if (ids.length) {
          if (!ep) throw new Error(`unknown Device Plugin ${resource}`);
          const response = await ep.allocate(ids);
          const byNuma: Record<string, string[]> = {};
          for (const id of ids) {
            const nodes = res!.devices.get(id)?.topology?.nodes ?? [];
            for (const n of nodes.length ? nodes.map(x => String(x.ID)) : ['-1']) (byNuma[n] ??= []).push(id);
          }
          setHolding(pods, uid, c.name, resource, { byNuma, response });
          changedAny = true;
        }
        const mine = pods.get(uid)?.get(c.name)?.get(resource);
        const set = reusable.get(resource) ?? new Set<string>();
        // an init container's devices pass to the containers after it; others keep theirs
        for (const id of mine ? holdingIds(mine) : []) isInitOnly(pod, c.name) ? set.add(id) : set.delete(id);
        reusable.set(resource, set);
      }
    }
    if (changedAny) await checkpoint();
  }

  return {
    async connect(resource, socket) {
      const ep = await connectPlugin(resource, socket);
      const res: Resource = resources.get(resource) ?? { devices: new Map() };
      const old = res.endpoint;
      res.endpoint = ep;
      res.stoppedAt = undefined;
      resources.set(resource, res);
      removed.delete(resource);
      old?.close();
      ep.watch(devices => {
        if (res.endpoint !== ep) return;
        res.devices = new Map(devices.map(d => [d.ID, d]));
        void checkpoint();
        changed();
      }, why => pluginGone(resource, ep, why));
      o.log.info('device plugin registered', { resource, socket, preStartRequired: ep.options.preStartRequired, getPreferredAllocationAvailable: ep.options.getPreferredAllocationAvailable });
    },
    disconnect(resource, socket) {
      const ep = resources.get(resource)?.endpoint;
      if (ep && ep.socket === socket) pluginGone(resource, ep, 'deregistered');
    },
    capacity() {
      const capacity: Record<string, string> = {};
      const allocatable: Record<string, string> = {};
      // pods that ended give their devices back here too, so the checkpoint follows within a status round
      let expired = release();
      for (const [r, res] of resources) {
        if (res.stoppedAt !== undefined && o.clock.now() - res.stoppedAt >= grace) {
          resources.delete(r);
          removed.add(r);
          expired = true;
          continue;
        }
        capacity[r] = String(res.devices.size);
        allocatable[r] = String([...res.devices.values()].filter(d => d.health === Healthy).length);
      }
      for (const r of removed) { capacity[r] = '0'; allocatable[r] = '0'; }
      if (expired) void checkpoint();
      return { capacity, allocatable };
    },
    admit(pod) {
      // one admission at a time: two pods must not both take the last free device
      const run = admitting.then(() => allocatePod(pod)).then(
        () => ({ admit: true as const }),
        err => ({ admit: false as const, reason: 'UnexpectedAdmissionError', message: `Allocate failed due to ${(err as { details?: string }).details ?? (err as Error).message}, which is unexpected` }),
      );
      admitting = run;
      return run;
    },
    async runOptions(pod, c) {
      // a container asking for devices it does not hold (its pod was admitted before a restart
      // that lost the checkpoint): allocated now, as the kubelet allocates again
      const missing = Object.keys(c.resources?.limits ?? {}).some(r => resources.has(r) && !pods.get(pod.metadata.uid)?.get(c.name)?.has(r));
      if (missing && o.activePods()?.has(pod.metadata.uid)) {
        const run = admitting.then(() => allocatePod(pod));
        admitting = run.catch(() => undefined);
        await run;
      }
      const byResource = pods.get(pod.metadata.uid)?.get(c.name);
      for (const [r, h] of byResource ?? []) {
        const ep = resources.get(r)?.endpoint;
        if (ep?.options.preStartRequired) await ep.preStart(holdingIds(h)).catch(err => { throw new Error(`device plugin PreStartContainer rpc failed with err: ${(err as { details?: string }).details ?? (err as Error).message}`); });
      }
      return runOptions(byResource);
    },
    podDevices(podUID) {
      const out = new Map<string, Map<string, Device[]>>();
      for (const [c, byResource] of pods.get(podUID) ?? []) {
        const m = new Map<string, Device[]>();
        for (const [r, h] of byResource) {
          m.set(r, Object.entries(h.byNuma).flatMap(([numa, ids]) => ids.map(ID => ({ ID, health: '', topology: numa === '-1' ? null : { nodes: [{ ID: Number(numa) }] } }))));
        }
        out.set(c, m);
      }
      return out;
    },
    allocatable() {
      const out = new Map<string, Device[]>();
      for (const [r, res] of resources) out.set(r, [...res.devices.values()].filter(d => d.health === Healthy));
      return out;
    },
    stop() {
      for (const t of timers) t.cancel();
      for (const res of resources.values()) { const ep = res.endpoint; res.endpoint = undefined; ep?.close(); }
    },
  };
}
