// A device plugin as a test drives it: grpc-js serving v1beta1.DevicePlugin on a socket, with a
// device list the test changes (each change one ListAndWatch response), the calls it received,
// and Registration.Register against the agent's socket. With `watcherInfo` it also serves the
// plugin registration API on the same socket, as plugins found through plugins_registry do.

import { credentials, Metadata, Server, ServerCredentials, type Client, type ServerUnaryCall, type ServerWritableStream, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import { devicePluginService, pluginRegistrationService, registrationService, type ContainerAllocateResponse, type Device } from '../../../../src/agent/devices/protos.ts';

export interface FakePlugin {
  socket: string;
  devices: Device[];
  setDevices(devices: Device[]): void;
  allocations: string[][];
  preferredAsked: Array<{ available: string[]; mustInclude: string[]; size: number }>;
  preStarts: string[][];
  notified: Array<{ pluginRegistered: boolean; error: string }>;
  register(agentSocket: string, resourceName: string, opts?: { version?: string; endpoint?: string }): Promise<void>;
  stop(): void;
}

export async function startFakePlugin(socket: string, o: {
  devices: Device[];
  preferred?: (available: string[]) => string[];
  preStartRequired?: boolean;
  respond?: (ids: string[]) => Partial<ContainerAllocateResponse>;
  watcherInfo?: { type: string; name: string; endpoint?: string; supportedVersions: string[] };
}): Promise<FakePlugin> {
  const streams = new Set<ServerWritableStream<unknown, unknown>>();
  const p: FakePlugin = {
    socket,
    devices: o.devices,
    allocations: [],
    preferredAsked: [],
    preStarts: [],
    notified: [],
    setDevices(devices) { p.devices = devices; for (const s of streams) s.write({ devices }); },
    async register(agentSocket, resourceName, r = {}) {
      const Ctor = registrationService();
      const c = new Ctor(`unix:${agentSocket}`, credentials.createInsecure()) as Client & Record<string, (req: unknown, md: Metadata, cb: (err: ServiceError | null) => void) => void>;
      try {
        await new Promise<void>((resolve, reject) => c.Register!({
          version: r.version ?? 'v1beta1', endpoint: r.endpoint ?? socket.split('/').pop(), resourceName,
          options: { preStartRequired: !!o.preStartRequired, getPreferredAllocationAvailable: !!o.preferred },
        }, new Metadata(), err => (err ? reject(err) : resolve())));
      } finally { c.close(); }
    },
    stop() { for (const s of streams) s.end(); server.forceShutdown(); },
  };
  const server = new Server();
  server.addService(devicePluginService().service, {
    GetDevicePluginOptions: (_c: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) => done(null, { preStartRequired: !!o.preStartRequired, getPreferredAllocationAvailable: !!o.preferred }),
    ListAndWatch(call: ServerWritableStream<unknown, unknown>) {
      streams.add(call);
      call.on('cancelled', () => streams.delete(call));
      call.write({ devices: p.devices });
    },
    GetPreferredAllocation(call: ServerUnaryCall<{ containerRequests: Array<{ availableDeviceIDs: string[]; mustIncludeDeviceIDs: string[]; allocationSize: number }> }, unknown>, done: sendUnaryData<unknown>) {
      const r = call.request.containerRequests[0]!;
      p.preferredAsked.push({ available: [...r.availableDeviceIDs].sort(), mustInclude: r.mustIncludeDeviceIDs, size: r.allocationSize });
      done(null, { containerResponses: [{ deviceIDs: o.preferred!(r.availableDeviceIDs) }] });
    },
    Allocate(call: ServerUnaryCall<{ containerRequests: Array<{ devicesIds: string[] }> }, unknown>, done: sendUnaryData<unknown>) {
      const ids = [...call.request.containerRequests[0]!.devicesIds].sort();
      p.allocations.push(ids);
      done(null, { containerResponses: [{ envs: { DEVICES: ids.join(',') }, ...(o.respond?.(ids) ?? {}) }] });
    },
    PreStartContainer(call: ServerUnaryCall<{ devicesIds: string[] }, unknown>, done: sendUnaryData<unknown>) {
      p.preStarts.push([...call.request.devicesIds].sort());
      done(null, {});
    },
  });
  if (o.watcherInfo) {
    server.addService(pluginRegistrationService().service, {
      GetInfo: (_c: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) => done(null, { endpoint: '', ...o.watcherInfo }),
      NotifyRegistrationStatus(call: ServerUnaryCall<{ pluginRegistered: boolean; error: string }, unknown>, done: sendUnaryData<unknown>) {
        p.notified.push({ pluginRegistered: call.request.pluginRegistered, error: call.request.error });
        done(null, {});
      },
    });
  }
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? reject(err) : resolve())));
  return p;
}

/** resolves once `check` holds, polling every 10 ms for up to 5 s */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 10));
  }
}
