// The agent's connection to one device plugin's socket: its options, the ListAndWatch stream
// (each response the whole device list), and the calls made when a container gets devices. The
// stream ending — the plugin stopped, its socket went away — is the plugin going away.

import { stat } from 'node:fs/promises';
import { credentials, Metadata, type Client, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { devicePluginService, type ContainerAllocateResponse, type Device, type DevicePluginOptions } from './protos.ts';

export interface PluginEndpoint {
  resource: string;
  socket: string;
  options: DevicePluginOptions;
  /** starts ListAndWatch: `onDevices` with every list, `onEnd` once when the stream ends */
  watch(onDevices: (devices: Device[]) => void, onEnd: (why: string) => void): void;
  preferred(available: string[], mustInclude: string[], size: number): Promise<string[]>;
  allocate(ids: string[]): Promise<ContainerAllocateResponse>;
  preStart(ids: string[]): Promise<void>;
  close(): void;
}

type Call = (req: unknown, md: Metadata, opts: { deadline: number }, cb: (err: ServiceError | null, res: unknown) => void) => void;
const dialMs = 10_000;
const callMs = 30_000;

/** dials the plugin (10 s, as the kubelet waits) and asks its options */
export async function connectPlugin(resource: string, socket: string): Promise<PluginEndpoint> {
  // no socket at all fails now, not after the dial's whole wait
  await stat(socket).catch((err: Error) => { throw new Error(`failed to dial device plugin: ${err.message}`); });
  const Ctor = devicePluginService();
  // the kubelet dials with authority "localhost"; grpc-js would put the socket path there
  const client = new Ctor(`unix:${socket}`, credentials.createInsecure(), { 'grpc.default_authority': 'localhost' }) as Client & Record<string, Call>;
  await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + dialMs, err => (err ? reject(new Error(`failed to dial device plugin: ${err.message}`)) : resolve())));
  const unary = <T>(method: string, req: unknown) => new Promise<T>((resolve, reject) =>
    client[method]!.call(client, req, new Metadata(), { deadline: Date.now() + callMs }, (err, res) => (err ? reject(err) : resolve(res as T))));
  let options: DevicePluginOptions;
  try {
    options = await unary<DevicePluginOptions>('GetDevicePluginOptions', {});
  } catch (err) {
    client.close();
    throw new Error(`failed to get device plugin options: ${(err as ServiceError).details ?? (err as Error).message}`);
  }
  let stream: ClientReadableStream<{ devices: Device[] }> | undefined;
  return {
    resource, socket, options,
    watch(onDevices, onEnd) {
      const s = (client as unknown as { ListAndWatch(req: unknown): ClientReadableStream<{ devices: Device[] }> }).ListAndWatch({});
      stream = s;
      let ended = false;
      const end = (why: string) => { if (!ended) { ended = true; onEnd(why); } };
      s.on('data', (r: { devices: Device[] }) => onDevices(r.devices ?? []));
      s.on('error', (err: ServiceError) => end(err.details || err.message));
      s.on('end', () => end('ListAndWatch ended'));
    },
    async preferred(available, mustInclude, size) {
      const res = await unary<{ containerResponses: Array<{ deviceIDs: string[] }> }>('GetPreferredAllocation', {
        containerRequests: [{ availableDeviceIDs: available, mustIncludeDeviceIDs: mustInclude, allocationSize: size }],
      });
      return res.containerResponses[0]?.deviceIDs ?? [];
    },
    async allocate(ids) {
      const res = await unary<{ containerResponses: ContainerAllocateResponse[] }>('Allocate', { containerRequests: [{ devicesIds: ids }] });
      if (!res.containerResponses.length) throw new Error(`no containers return in allocation response ${JSON.stringify(res)}`);
      return res.containerResponses[0]!;
    },
    async preStart(ids) {
      await unary('PreStartContainer', { devicesIds: ids });
    },
    close() {
      stream?.cancel();
      client.close();
    },
  };
}
