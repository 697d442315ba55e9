// startRuntimeSim: the simulated runtime as a CRI (runtime.v1) gRPC server on a UNIX socket.
// Exec, Attach and PortForward answer URLs on its streaming server (streaming-server.ts).
// Methods the sim has nothing behind (streamed lists, metrics, pod checkpoints) answer
// UNIMPLEMENTED in grpc-go's words, as containerd does for the ones it lacks.

import { lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Server, ServerCredentials, type handleServerStreamingCall, type handleUnaryCall, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { criServices } from '../agent/cri/descriptor.ts';
import { containerHandlers } from './container-handlers.ts';
import { execHandlers } from './exec-handlers.ts';
import { toServiceError, unimplemented } from './grpc-errors.ts';
import type { Handlers } from './handlers.ts';
import { imageHandlers } from './image-handlers.ts';
import { simSettings, type RuntimeSimOptions } from './options.ts';
import { runtimeHandlers } from './runtime-handlers.ts';
import { statsHandlers } from './stats-handlers.ts';
import { newRuntime, type SimRuntime } from './runtime-state.ts';
import { sandboxHandlers } from './sandbox-handlers.ts';
import { startStreamingServer } from './streaming-server.ts';
import type { Logger } from '../api/log.ts';

export type { RuntimeSimOptions } from './options.ts';

export interface RuntimeSim {
  /** "unix:///path/to.sock", as the agent's --container-runtime-endpoint takes it */
  endpoint: string;
  /** stops every container, closes the server and removes the socket */
  stop(): Promise<void>;
}

export async function startRuntimeSim(opts: RuntimeSimOptions): Promise<RuntimeSim> {
  const settings = simSettings(opts);
  const socket = resolve(settings.socket);
  const rt = newRuntime({ ...settings, socket });
  const streamingServer = await startStreamingServer(rt);
  rt.streaming = streamingServer.requests;
  const { RuntimeService, ImageService } = criServices();
  const server = new Server();
  const runtime = { ...sandboxHandlers(rt), ...containerHandlers(rt), ...execHandlers(rt), ...runtimeHandlers(rt), ...statsHandlers(rt) };
  server.addService(RuntimeService.service, implementation(RuntimeService.service, runtime, settings.log));
  server.addService(ImageService.service, implementation(ImageService.service, imageHandlers(rt), settings.log));

  await mkdir(dirname(socket), { recursive: true });
  await removeSocket(socket);
  await new Promise<void>((done, fail) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? fail(err) : done())));
  settings.log.info('runtime sim listening', { socket });

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `unix://${socket}`,
    stop: () => (stopping ??= shutdown(server, rt, socket).then(() => streamingServer.close())),
  };
}

function implementation(def: ServiceDefinition, handlers: Handlers, log: Logger): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(def)) {
    if (method.requestStream || method.responseStream) {
      const refuse: handleServerStreamingCall<unknown, unknown> = call => call.emit('error', toServiceError(unimplemented(name)));
      impl[name] = refuse;
      continue;
    }
    // the descriptor names the method; its handler takes the request the descriptor decoded
    const handler = (handlers as Record<string, ((req: unknown) => Promise<unknown>) | undefined>)[name];
    const unary: handleUnaryCall<unknown, unknown> = (call, callback) => {
      if (!handler) return callback(toServiceError(unimplemented(name)));
      handler(call.request).then(res => callback(null, res), err => {
        const e = toServiceError(err);
        if (log.enabled('debug')) log.debug('CRI call failed', { method: name, code: e.code, details: e.details });
        callback(e);
      });
    };
    impl[name] = unary;
  }
  return impl;
}

async function shutdown(server: Server, rt: SimRuntime, socket: string): Promise<void> {
  await Promise.all(rt.containers.values().map(c => c.remove()));
  await new Promise<void>(done => {
    // calls still waiting (a long StopContainer, a pull) would hold a graceful shutdown open
    const force = setTimeout(() => server.forceShutdown(), 1000);
    server.tryShutdown(() => { clearTimeout(force); done(); });
  });
  await removeSocket(socket);
}

/** a socket left by an earlier run is replaced, as containerd replaces its own */
async function removeSocket(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return;
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket`);
  await unlink(path).catch(() => {});
}
