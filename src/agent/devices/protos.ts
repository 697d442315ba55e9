// The local gRPC APIs around devices, loaded from their .proto files beside this one: the device
// plugin API v1beta1, the plugin registration API v1 and (for podresources/) the pod resources
// API v1. Fields arrive camelCased (resource_name → resourceName), int64 as numbers (NUMA ids
// and sizes stay far below 2^53), and absent fields as their defaults, so handlers never see
// undefined where Go code would see a zero value.

import { fileURLToPath } from 'node:url';
import { loadPackageDefinition, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';

const options = { keepCase: false, longs: Number, enums: String, defaults: true, arrays: true, objects: true, oneofs: true };

const loaded = new Map<string, { def: PackageDefinition; pkg: GrpcObject }>();

/** a .proto file of this folder or a sibling, loaded once */
export function loadProto(relative: string): { def: PackageDefinition; pkg: GrpcObject } {
  let hit = loaded.get(relative);
  if (!hit) {
    const def = loadSync(fileURLToPath(new URL(relative, import.meta.url)), options);
    hit = { def, pkg: loadPackageDefinition(def) };
    loaded.set(relative, hit);
  }
  return hit;
}

const dp = () => loadProto('./deviceplugin.proto');
const pr = () => loadProto('./pluginregistration.proto');

/** v1beta1.Registration: served by the agent */
export const registrationService = () => (dp().pkg.v1beta1 as GrpcObject).Registration as ServiceClientConstructor;
/** v1beta1.DevicePlugin: served by each plugin, called by the agent */
export const devicePluginService = () => (dp().pkg.v1beta1 as GrpcObject).DevicePlugin as ServiceClientConstructor;
/** pluginregistration.Registration: served by plugins in plugins_registry */
export const pluginRegistrationService = () => (pr().pkg.pluginregistration as GrpcObject).Registration as ServiceClientConstructor;

export const supportedVersions = ['v1beta1'];
export const Healthy = 'Healthy';
export const Unhealthy = 'Unhealthy';

export interface DevicePluginOptions { preStartRequired: boolean; getPreferredAllocationAvailable: boolean }
export interface Device { ID: string; health: string; topology?: { nodes: Array<{ ID: number }> } | null }
export interface ContainerAllocateResponse {
  envs: Record<string, string>;
  mounts: Array<{ containerPath: string; hostPath: string; readOnly: boolean }>;
  devices: Array<{ containerPath: string; hostPath: string; permissions: string }>;
  annotations: Record<string, string>;
  cdiDevices: Array<{ name: string }>;
}

type MethodDef = { responseSerialize(v: unknown): Buffer; responseDeserialize(b: Buffer): unknown };
const allocateMethod = () => (dp().def['v1beta1.DevicePlugin'] as unknown as Record<string, MethodDef>).Allocate;

/**
 * one container's answer as protobuf bytes, the form the checkpoint keeps (AllocResp). An
 * AllocateResponse holding only it is field 1 around those bytes, so the bytes are that
 * response's encoding after its tag and length.
 */
export function encodeContainerResponse(r: ContainerAllocateResponse): Buffer {
  const whole = allocateMethod().responseSerialize({ containerResponses: [r] });
  let i = 1;
  while (whole[i]! & 0x80) i++;
  return whole.subarray(i + 1);
}

export function decodeContainerResponse(bytes: Uint8Array): ContainerAllocateResponse {
  const len: number[] = [];
  let n = bytes.length;
  do { len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0)); n >>>= 7; } while (n > 0);
  const whole = Buffer.concat([Buffer.from([0x0a, ...len]), bytes]);
  const res = allocateMethod().responseDeserialize(whole) as { containerResponses: ContainerAllocateResponse[] };
  return res.containerResponses[0]!;
}
