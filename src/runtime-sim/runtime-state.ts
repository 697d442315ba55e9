// Everything one simulated runtime holds. Each sim has its own, so that many run in a process.

import type { SimContainer } from './container.ts';
import { IdIndex, NameRegistry } from './ids.ts';
import { ImageStore } from './images.ts';
import { IpPool } from './ip-pool.ts';
import type { SimSettings } from './options.ts';
import type { Sandbox } from './sandbox.ts';
import { SimNetwork } from './network.ts';
import type { StreamingRequests } from './streaming-requests.ts';

export interface SimRuntime {
  settings: SimSettings;
  images: ImageStore;
  ips: IpPool;
  sandboxes: IdIndex<Sandbox>;
  containers: IdIndex<SimContainer>;
  names: NameRegistry;
  /** the pods' listeners, for port forwarding */
  network: SimNetwork;
  /** CRI Exec, Attach and PortForward requests waiting for their client (set once serving) */
  streaming?: StreamingRequests;
}

export function newRuntime(settings: SimSettings): SimRuntime {
  return {
    settings,
    images: new ImageStore({
      clock: settings.clock,
      pullDelayMs: settings.pullDelayMs,
      unpullable: settings.unpullableImages,
      preloaded: settings.preloadedImages,
    }),
    ips: new IpPool(settings.podSubnet),
    sandboxes: new IdIndex(),
    containers: new IdIndex(),
    names: new NameRegistry(),
    network: new SimNetwork(),
  };
}
