// ContainerStats, ListContainerStats, PodSandboxStats, ListPodSandboxStats: the sim's model of
// resource use. A running container uses the CPU its cpu-millicores annotation says (none by
// default), accumulated over the time it has run; its memory working set is its memory-bytes
// annotation, else 1 MiB plus the bytes of the files its processes wrote. Exited containers
// report no CPU or memory, as containerd's do once their cgroup is gone.

import { containerFilter, sandboxFilter } from './filters.ts';
import { notFound } from './grpc-errors.ts';
import type { Handlers } from './handlers.ts';
import { nanos } from './options.ts';
import { readOverrides } from './overrides.ts';
import type { SimRuntime } from './runtime-state.ts';
import type { SimContainer } from './container.ts';
import type { CriContainerStats, CriInput } from '../agent/cri/generated/cri-types.ts';

const baseMemory = 1 << 20;

function containerStats(rt: SimRuntime, c: SimContainer): CriInput<CriContainerStats> {
  const now = nanos(rt.settings.clock.now());
  const sandbox = rt.sandboxes.find(c.spec.sandboxId);
  const o = readOverrides(c.spec.config.metadata?.name ?? '', c.spec.config.annotations, sandbox?.config.annotations);
  const attributes = { id: c.id, metadata: c.spec.config.metadata, labels: c.spec.config.labels ?? {}, annotations: c.spec.config.annotations ?? {} };
  const written = [...c.files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0);
  const writableLayer = { timestamp: now, fsId: { mountpoint: '/' }, usedBytes: { value: written }, inodesUsed: { value: c.files.size } };
  if (c.state !== 'CONTAINER_RUNNING') return { attributes, writableLayer };
  const ranNs = Math.max(0, now - c.startedAt);
  const memory = o.memoryBytes ?? baseMemory + written;
  const limit = Number(c.resources?.memoryLimitInBytes ?? 0);
  return {
    attributes,
    cpu: { timestamp: now, usageCoreNanoSeconds: { value: Math.round((ranNs * (o.cpuMillicores ?? 0)) / 1000) }, usageNanoCores: { value: (o.cpuMillicores ?? 0) * 1e6 } },
    memory: { timestamp: now, workingSetBytes: { value: memory }, usageBytes: { value: memory }, rssBytes: { value: memory }, ...(limit > 0 ? { availableBytes: { value: Math.max(0, limit - memory) } } : {}), pageFaults: { value: 0 }, majorPageFaults: { value: 0 } },
    writableLayer,
  };
}

export function statsHandlers(rt: SimRuntime): Handlers {
  const sandboxStats = (id: string) => {
    const sb = rt.sandboxes.find(id);
    if (!sb) throw notFound(`an error occurred when try to find sandbox "${id}": not found`);
    const containers = rt.containers.values().filter(c => c.spec.sandboxId === id).map(c => containerStats(rt, c));
    const now = nanos(rt.settings.clock.now());
    const sum = (f: (s: CriInput<CriContainerStats>) => number | undefined) => containers.reduce((n, s) => n + (f(s) ?? 0), 0);
    return {
      attributes: { id, metadata: sb.config.metadata, labels: sb.config.labels ?? {}, annotations: sb.config.annotations ?? {} },
      linux: {
        cpu: { timestamp: now, usageCoreNanoSeconds: { value: sum(s => Number(s.cpu?.usageCoreNanoSeconds?.value ?? 0)) } },
        memory: { timestamp: now, workingSetBytes: { value: sum(s => Number(s.memory?.workingSetBytes?.value ?? 0)) } },
        network: { timestamp: now, defaultInterface: { name: 'eth0', rxBytes: { value: 0 }, rxErrors: { value: 0 }, txBytes: { value: 0 }, txErrors: { value: 0 } }, interfaces: [] },
        containers,
      },
    };
  };
  return {
    async ContainerStats(req) {
      const c = rt.containers.find(req.containerId);
      if (!c) throw notFound(`an error occurred when try to find container "${req.containerId}": not found`);
      return { stats: containerStats(rt, c) };
    },
    async ListContainerStats(req) {
      const f = req.filter;
      const filter = containerFilter(rt, f ? { id: f.id, podSandboxId: f.podSandboxId, labelSelector: f.labelSelector } : undefined);
      return { stats: rt.containers.values().filter(filter).map(c => containerStats(rt, c)) };
    },
    async PodSandboxStats(req) {
      return { stats: sandboxStats(req.podSandboxId) };
    },
    async ListPodSandboxStats(req) {
      const f = req.filter;
      const ids = rt.sandboxes.values().filter(sandboxFilter(rt, f ? { id: f.id, labelSelector: f.labelSelector } : undefined)).map(sb => sb.id);
      return { stats: ids.map(sandboxStats) };
    },
  };
}
