// The plugin watcher on `<root-dir>/plugins_registry`: a plugin puts a socket there, the agent
// asks it who it is (GetInfo), hands it to the handler of its type, and tells it the outcome
// (NotifyRegistrationStatus); the socket's removal deregisters it, a new socket at the same path
// registers it again. Types without a handler here (CSIPlugin, DRAPlugin: orch has neither
// manager) are told so in the kubelet's words. Hidden files are ignored, as the kubelet ignores them.

import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from '../../api/log.ts';
import { pluginRegistrationService } from '../devices/protos.ts';

export interface PluginHandler {
  /** a problem with the plugin's name or versions, or undefined */
  validate(name: string, endpoint: string, versions: string[]): string | undefined;
  register(name: string, endpoint: string, versions: string[]): Promise<void>;
  deregister(name: string, endpoint: string): void;
}

interface PluginInfo { type: string; name: string; endpoint: string; supportedVersions: string[] }
interface Registered { ino: number; type: string; name: string; endpoint: string }

type Call = (req: unknown, md: Metadata, opts: { deadline: number }, cb: (err: ServiceError | null, res: unknown) => void) => void;
const timeoutMs = 10_000;

export interface PluginWatcher { dir: string; stop(): void }

export async function startPluginWatcher(o: { rootDir: string; handlers: Record<string, PluginHandler>; log: Logger }): Promise<PluginWatcher> {
  const dir = join(o.rootDir, 'plugins_registry');
  await mkdir(dir, { recursive: true, mode: 0o750 });
  const registered = new Map<string, Registered>();
  let busy = Promise.resolve();

  async function register(socket: string, ino: number): Promise<void> {
    const Ctor = pluginRegistrationService();
    const client = new Ctor(`unix:${socket}`, credentials.createInsecure(), { 'grpc.default_authority': 'localhost' }) as Client & Record<string, Call>;
    const unary = <T>(m: string, req: unknown) => new Promise<T>((resolve, reject) =>
      client[m]!.call(client, req, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res as T))));
    const notify = (ok: boolean, error: string) => unary('NotifyRegistrationStatus', { pluginRegistered: ok, error }).catch(err => o.log.warn('RegisterPlugin error -- failed to send registration status', { socket, err: String(err) }));
    try {
      // a socket may appear a moment before its server listens
      await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + timeoutMs, err => (err ? reject(err) : resolve())));
      const info = await unary<PluginInfo>('GetInfo', {});
      const handler = o.handlers[info.type];
      if (!handler) {
        const msg = `RegisterPlugin error -- no handler registered for plugin type: ${info.type} at socket ${socket}`;
        o.log.info(msg);
        return void (await notify(false, msg));
      }
      const endpoint = info.endpoint || socket;
      const problem = handler.validate(info.name, endpoint, info.supportedVersions);
      if (problem) return void (await notify(false, `RegisterPlugin error -- plugin validation failed with err: ${problem}`));
      try {
        await handler.register(info.name, endpoint, info.supportedVersions);
      } catch (err) {
        return void (await notify(false, `RegisterPlugin error -- plugin registration failed with err: ${(err as Error).message}`));
      }
      registered.set(socket, { ino, type: info.type, name: info.name, endpoint });
      await notify(true, '');
    } catch (err) {
      o.log.warn('RegisterPlugin error -- failed to get plugin info', { socket, err: (err as ServiceError).details ?? String(err) });
    } finally {
      client.close();
    }
  }

  function deregister(socket: string): void {
    const r = registered.get(socket);
    if (!r) return;
    registered.delete(socket);
    o.handlers[r.type]?.deregister(r.name, r.endpoint);
  }

  /** one path looked at again: a new socket registers, a gone or replaced one deregisters */
  async function examine(socket: string): Promise<void> {
    const st = await stat(socket).catch(() => undefined);
    const known = registered.get(socket);
    if (known && (!st || st.ino !== known.ino)) deregister(socket);
    if (st?.isSocket() && registered.get(socket)?.ino !== st.ino) await register(socket, st.ino);
  }
  const queue = (socket: string) => { busy = busy.then(() => examine(socket)).catch(err => o.log.warn('plugin watcher', { err: String(err) })); };

  const watcher: FSWatcher = watch(dir, (_event, name) => { if (name && !name.startsWith('.')) queue(join(dir, name)); });
  for (const name of await readdir(dir)) if (!name.startsWith('.')) queue(join(dir, name));
  o.log.info('plugin watcher started', { dir });
  return {
    dir,
    // the plugins stay registered with the device manager, which closes them itself when it stops
    stop() {
      watcher.close();
    },
  };
}
