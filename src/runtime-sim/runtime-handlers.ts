// Version, Status, RuntimeConfig and UpdateRuntimeConfig: what the runtime says about itself.

import { createRequire } from 'node:module';
import type { Handlers } from './handlers.ts';
import type { SimRuntime } from './runtime-state.ts';

const projectVersion: string = createRequire(import.meta.url)('../../package.json').version;

export const runtimeName = 'orch-runtime-sim';

const handlerFeatures = { recursiveReadOnlyMounts: false, userNamespaces: false };

export function runtimeHandlers(rt: SimRuntime): Handlers {
  let podCidr = '';
  return {
    async Version() {
      // "0.1.0" is the CRI's own version field, which runtimes answer with that constant
      return { version: '0.1.0', runtimeName, runtimeVersion: projectVersion, runtimeApiVersion: 'v1' };
    },

    async Status(req) {
      const conditions = ['RuntimeReady', 'NetworkReady'].map(type => ({ type, status: true, reason: '', message: '' }));
      const info: Record<string, string> = req.verbose
        ? { config: JSON.stringify({ sandboxImage: rt.settings.sandboxImage, podSubnet: rt.settings.podSubnet, podCidr, startDelayMs: rt.settings.startDelayMs, pullDelayMs: rt.settings.pullDelayMs, checkpoint: rt.settings.checkpoint }) }
        : {};
      return {
        status: { conditions },
        info,
        runtimeHandlers: [{ name: '', features: handlerFeatures }, { name: 'runc', features: handlerFeatures }],
        features: { supplementalGroupsPolicy: false, userNamespacesHostNetwork: false, mountOptions: false },
      };
    },

    async RuntimeConfig() {
      return { linux: { cgroupDriver: 'CGROUPFS' } };
    },

    async UpdateRuntimeConfig(req) {
      // the agent announces the node's pod CIDR; sandbox IPs keep coming from --pod-subnet
      podCidr = req.runtimeConfig?.networkConfig?.podCidr ?? podCidr;
      return {};
    },
  };
}
