// The Registration service of the device plugin API on `<device-plugins dir>/agent.sock`: a
// plugin says which resource it offers and where its own socket is (inside the same directory);
// the agent checks the version and the name, connects back, and answers only once it is
// connected, so a plugin whose socket cannot be reached hears why. Errors are the kubelet's.

import { join } from 'node:path';
import { status as grpcStatus, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from '../../api/log.ts';
import { serveLocalGrpc, type LocalGrpcServer } from '../local-grpc.ts';
import type { PluginHandler } from '../plugins/plugin-watcher.ts';
import type { DeviceManager } from './manager.ts';
import { isExtendedResourceName } from './pod-devices.ts';
import { registrationService, supportedVersions } from './protos.ts';

export const registrationSocketName = 'agent.sock';

interface RegisterRequest { version: string; endpoint: string; resourceName: string }

/** the kubelet's refusal of a registration, or undefined when it may go on */
export function registrationProblem(r: { version: string; resourceName: string }): string | undefined {
  if (!supportedVersions.includes(r.version)) return `requested API version "${r.version}" is not supported by kubelet. Supported version is [${supportedVersions.map(v => `"${v}"`).join(' ')}]`;
  if (!isExtendedResourceName(r.resourceName)) return `the ResourceName "${r.resourceName}" is invalid`;
  return undefined;
}

export async function startRegistrationServer(o: { dir: string; manager: DeviceManager; log: Logger }): Promise<LocalGrpcServer> {
  const served = await serveLocalGrpc(join(o.dir, registrationSocketName), server => server.addService(registrationService().service, {
    Register(call: ServerUnaryCall<RegisterRequest, unknown>, done: sendUnaryData<unknown>) {
      const r = call.request;
      o.log.info('Got registration request from device plugin with resource', { resourceName: r.resourceName });
      const problem = registrationProblem(r);
      if (problem) {
        o.log.info('Bad registration request from device plugin', { resourceName: r.resourceName, err: problem });
        return done({ code: grpcStatus.UNKNOWN, details: problem });
      }
      // the endpoint is a name in this directory, never a path elsewhere
      if (!r.endpoint || r.endpoint.includes('/')) return done({ code: grpcStatus.UNKNOWN, details: `failed to dial device plugin: the endpoint "${r.endpoint}" is not a socket name in ${o.dir}` });
      o.manager.connect(r.resourceName, join(o.dir, r.endpoint)).then(() => done(null, {}), (err: Error) => {
        o.log.info('Error connecting to device plugin client', { err: err.message });
        done({ code: grpcStatus.UNKNOWN, details: err.message });
      });
    },
  }));
  o.log.info('Serving device plugin registration server', { socket: served.socket });
  return served;
}

/** device plugins found by the plugin watcher (type DevicePlugin): the name is the resource */
export function devicePluginHandler(manager: DeviceManager): PluginHandler {
  return {
    validate(name, _endpoint, versions) {
      if (!versions.some(v => supportedVersions.includes(v))) return `manager version, ${supportedVersions[0]}, is not among plugin supported versions [${versions.join(' ')}]`;
      if (!isExtendedResourceName(name)) return `invalid name of device plugin socket: the ResourceName "${name}" is invalid`;
      return undefined;
    },
    register: (name, endpoint) => manager.connect(name, endpoint),
    deregister: (name, endpoint) => manager.disconnect(name, endpoint),
  };
}
