// CreateContainer, StartContainer, StopContainer, RemoveContainer, ListContainers,
// ContainerStatus, UpdateContainerResources and ReopenContainerLog.

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SimContainer } from './container.ts';
import { containerFilter } from './filters.ts';
import { notFound, unknown } from './grpc-errors.ts';
import type { Handlers } from './handlers.ts';
import { normalizeImageRef } from './image-ref.ts';
import { readOverrides } from './overrides.ts';
import { readRestorePoint, restoreAnnotation } from './restore.ts';
import { containerProgram } from './program.ts';
import { checkPidTarget, visibleProcesses } from './pid-namespace.ts';
import type { SimRuntime } from './runtime-state.ts';
import type { Sandbox } from './sandbox.ts';
import type { CriContainerConfig } from '../agent/cri/generated/cri-types.ts';

/** finds a container or fails as containerd does for an unknown id */
export function findContainer(rt: SimRuntime, id: string): SimContainer {
  const c = rt.containers.find(id);
  if (!c) throw notFound(`an error occurred when try to find container "${id}": not found`);
  return c;
}

/** the pod's hostname; a sandbox without one (host network: the kubelet sends none) has the host's, as containerd gives it */
const sandboxHostname = (sandbox: Sandbox) => sandbox.config.hostname || hostname();

/**
 * the pod's /etc/resolv.conf as containerd writes it from the sandbox's DNS settings (search,
 * nameserver lines, options), or the host's own when they are empty
 */
function sandboxResolvConf(sandbox: Sandbox): string {
  const { servers = [], searches = [], options = [] } = sandbox.config.dnsConfig ?? {};
  if (!servers.length && !searches.length && !options.length) {
    try { return readFileSync('/etc/resolv.conf', 'utf8'); } catch { return ''; }
  }
  return (searches.length ? `search ${searches.join(' ')}\n` : '') + servers.map(s => `nameserver ${s}\n`).join('') + (options.length ? `options ${options.join(' ')}\n` : '');
}

/** the environment a container's processes see: the spec's variables and the pod's hostname */
function containerEnv(config: CriContainerConfig, sandbox: Sandbox): Record<string, string> {
  const env: Record<string, string> = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: sandboxHostname(sandbox) };
  for (const kv of config.envs ?? []) {
    // KeyValue.value is a string in the CRI proto; the descriptor's table says bytes, which read
    // the same on the wire
    env[kv.key] = typeof kv.value === 'string' ? kv.value : Buffer.from(kv.value ?? []).toString('utf8');
  }
  return env;
}

export function containerHandlers(rt: SimRuntime): Handlers {
  const { settings, sandboxes, containers, names, images } = rt;

  return {
    async CreateContainer(req) {
      const sandbox = sandboxes.find(req.podSandboxId);
      if (!sandbox) throw notFound(`failed to find sandbox id "${req.podSandboxId}": not found`);
      if (sandbox.state !== 'SANDBOX_READY') throw unknown(`sandbox container "${sandbox.id}" is not running`);
      const config = req.config;
      if (!config?.metadata) throw unknown('container config must include metadata');
      const asked: string = config.image?.image ?? '';
      const image = images.find(asked);
      if (!image) throw notFound(`failed to resolve image "${asked}": not found`);
      checkPidTarget(rt, sandbox.id, config);
      const overrides = readOverrides(config.metadata.name, config.annotations, sandbox.config.annotations);
      const restoreFrom = sandbox.config.annotations?.[restoreAnnotation];
      const restore = restoreFrom ? await readRestorePoint(restoreFrom, config.metadata.name) : undefined;
      const id = settings.newId();
      const sm = sandbox.config.metadata;
      const name = [config.metadata.name, sm?.name, sm?.namespace, sm?.uid, config.metadata.attempt ?? 0].join('_');
      const owner = names.reserve(name, id);
      if (owner) throw unknown(`failed to reserve container name "${name}": name "${name}" is reserved for "${owner}"`);
      const logDir: string = sandbox.config.logDirectory ?? '';
      const container: SimContainer = new SimContainer({
        id,
        sandboxId: sandbox.id,
        name,
        config,
        image,
        imageName: image.repoTags[0] ?? normalizeImageRef(asked) ?? asked,
        logPath: logDir && config.logPath ? join(logDir, config.logPath) : '',
        env: containerEnv(config, sandbox),
        hostname: sandboxHostname(sandbox),
        resolvConf: sandboxResolvConf(sandbox),
        program: containerProgram(config.command ?? [], config.args ?? [], overrides),
        clock: settings.clock,
        // host-network pods listen on the node itself, which the sim does not model
        listen: sandbox.ip ? (port, onConnection) => rt.network.listen(sandbox.id, port, onConnection) : undefined,
        ...(overrides.memoryBytes !== undefined ? { memoryBytes: overrides.memoryBytes } : {}),
        ...(restore ? { restore } : {}),
        processes: (): string[] => visibleProcesses(rt, container),
      });
      containers.add(id, container);
      settings.log.debug('container created', { id, name });
      return { containerId: id };
    },

    async StartContainer(req) {
      const c = findContainer(rt, req.containerId);
      const sandbox = sandboxes.find(c.spec.sandboxId);
      if (!sandbox || sandbox.state !== 'SANDBOX_READY') throw unknown(`sandbox container "${c.spec.sandboxId}" is not running`);
      await c.start(settings.startDelayMs);
      settings.log.debug('container started', { id: c.id });
      return {};
    },

    async StopContainer(req) {
      await findContainer(rt, req.containerId).stop(Number(req.timeout ?? 0));
      return {};
    },

    async RemoveContainer(req) {
      const c = containers.find(req.containerId);
      if (!c) return {};
      await c.remove();
      containers.delete(c.id);
      names.release(c.spec.name);
      return {};
    },

    async ListContainers(req) {
      return { containers: containers.values().filter(containerFilter(rt, req.filter)).map(c => c.summary()) };
    },

    async ContainerStatus(req) {
      return { status: findContainer(rt, req.containerId).status(), info: {} };
    },

    async UpdateContainerResources(req) {
      const c = findContainer(rt, req.containerId);
      if (c.state === 'CONTAINER_EXITED') throw unknown(`container "${c.id}" is in ${c.state} state`);
      if (req.linux) c.resources = req.linux;
      c.checkMemory();
      return {};
    },

    async ReopenContainerLog(req) {
      const c = findContainer(rt, req.containerId);
      // output is appended by path, so a rotated log is recreated by the next line on its own
      if (c.state !== 'CONTAINER_RUNNING') throw unknown('container is not running');
      return {};
    },
  };
}
