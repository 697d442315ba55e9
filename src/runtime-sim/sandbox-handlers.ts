// RunPodSandbox, StopPodSandbox, RemovePodSandbox, PodSandboxStatus and ListPodSandbox.

import { notFound, unknown } from './grpc-errors.ts';
import { nanos } from './options.ts';
import type { SimRuntime } from './runtime-state.ts';
import { sandboxName, sandboxStatus, sandboxSummary, usesHostNetwork, type Sandbox } from './sandbox.ts';
import { sandboxFilter } from './filters.ts';
import type { Handlers } from './handlers.ts';

const runtimeHandlers = new Set(['', 'runc']);

export function sandboxHandlers(rt: SimRuntime): Handlers {
  const { settings, sandboxes, containers, names, ips, images } = rt;

  const find = (id: string, message: string): Sandbox => {
    const sb = sandboxes.find(id);
    if (!sb) throw notFound(message);
    return sb;
  };

  const stop = async (sb: Sandbox) => {
    // containers of a stopping pod are killed at once: the agent has already given them their grace
    await Promise.all(containers.values().filter(c => c.spec.sandboxId === sb.id).map(c => c.stop(0)));
    sb.state = 'SANDBOX_NOTREADY';
    // stopping tears the network down (CNI DEL), which gives the address back to host-local
    // IPAM: finished pods (a Job's) hold none. The status still names it, for the agent's report
    if (sb.ip && !sb.ipReleased) { ips.release(sb.ip); sb.ipReleased = true; }
  };

  return {
    async RunPodSandbox(req) {
      const config = req.config;
      if (!config?.metadata) throw unknown('sandbox config must include metadata');
      const handler: string = req.runtimeHandler ?? '';
      if (!runtimeHandlers.has(handler)) throw unknown(`failed to get sandbox runtime: no runtime for "${handler}" is configured`);
      const id = settings.newId();
      const name = sandboxName(config);
      const owner = names.reserve(name, id);
      if (owner) throw unknown(`failed to reserve sandbox name "${name}": name "${name}" is reserved for "${owner}"`);
      if (!images.find(settings.sandboxImage)) images.add(settings.sandboxImage, true);
      let ip = '';
      if (!usesHostNetwork(config)) {
        const got = ips.allocate();
        if (!got) {
          names.release(name);
          throw unknown(`failed to setup network for sandbox "${id}": plugin type="host-local" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${settings.podSubnet}`);
        }
        ip = got;
      }
      sandboxes.add(id, { id, name, config, runtimeHandler: handler, createdAt: nanos(settings.clock.now()), state: 'SANDBOX_READY', ip });
      settings.log.debug('sandbox ready', { id, name, ip });
      return { podSandboxId: id };
    },

    async StopPodSandbox(req) {
      await stop(find(req.podSandboxId, `an error occurred when try to find sandbox "${req.podSandboxId}": not found`));
      return {};
    },

    async RemovePodSandbox(req) {
      const sb = sandboxes.find(req.podSandboxId);
      if (!sb) return {};
      if (sb.state === 'SANDBOX_READY') await stop(sb);
      for (const c of containers.values().filter(c => c.spec.sandboxId === sb.id)) {
        await c.remove();
        containers.delete(c.id);
        names.release(c.spec.name);
      }
      if (sb.ip && !sb.ipReleased) ips.release(sb.ip);
      names.release(sb.name);
      sandboxes.delete(sb.id);
      settings.log.debug('sandbox removed', { id: sb.id });
      return {};
    },

    async PodSandboxStatus(req) {
      const sb = find(req.podSandboxId, 'an error occurred when try to find sandbox: not found');
      return { status: sandboxStatus(sb), info: {}, containersStatuses: [], timestamp: nanos(settings.clock.now()) };
    },

    async ListPodSandbox(req) {
      return { items: sandboxes.values().filter(sandboxFilter(rt, req.filter)).map(sandboxSummary) };
    },
  };
}
