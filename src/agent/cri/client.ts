// The agent's CRI client: runtime.v1 over the runtime's UNIX socket with @grpc/grpc-js. Every
// call has a deadline (the runtime request timeout, 2 minutes by default as in Kubernetes;
// stopping a container adds its grace period; image pulls have none). Requests and responses are plain objects with
// camelCase fields as the descriptor gives them.

import { credentials, type Client as GrpcClient, type ServiceError } from '@grpc/grpc-js';
import { criServices } from './descriptor.ts';
import { CriError } from './errors.ts';
import type { CriImageServiceMethods, CriInput, CriRuntimeServiceMethods } from './generated/cri-types.ts';

type Methods = CriRuntimeServiceMethods & CriImageServiceMethods;

const runtimeMethods = [
  'version', 'runPodSandbox', 'stopPodSandbox', 'removePodSandbox', 'podSandboxStatus', 'listPodSandbox',
  'createContainer', 'startContainer', 'stopContainer', 'removeContainer', 'listContainers', 'containerStatus',
  'updateContainerResources', 'reopenContainerLog', 'execSync', 'exec', 'attach', 'portForward',
  'containerStats', 'listContainerStats', 'podSandboxStats', 'listPodSandboxStats', 'updateRuntimeConfig',
  'status', 'checkpointContainer', 'listMetricDescriptors', 'listPodSandboxMetrics', 'runtimeConfig',
] as const;
const imageMethods = ['listImages', 'imageStatus', 'pullImage', 'removeImage', 'imageFsInfo'] as const;

/** each method takes its request (any field may be left out) and answers its decoded response */
export type CriClient = { [K in (typeof runtimeMethods)[number] | (typeof imageMethods)[number]]: (req?: CriInput<Methods[K][0]>, timeoutMs?: number) => Promise<Methods[K][1]> } & { close(): void };
type Call = (req?: { timeout?: number }, timeoutMs?: number) => Promise<unknown>;

export interface CriOptions {
  /** per-call deadline; default 2 minutes */
  timeoutMs?: number;
  /** the image service's endpoint when it differs from the runtime's */
  imageEndpoint?: string;
}

/** "unix:///run/x.sock" or "/run/x.sock" as grpc-js addresses it */
export function grpcAddress(endpoint: string): string {
  if (endpoint.startsWith('unix://')) return `unix:${endpoint.slice('unix://'.length)}`;
  if (endpoint.startsWith('/')) return `unix:${endpoint}`;
  return endpoint;
}

function bind(client: GrpcClient, method: string, timeoutMs: number) {
  const fn = (client as unknown as Record<string, Function>)[method[0]!.toUpperCase() + method.slice(1)]!;
  return (req: object = {}, callTimeoutMs?: number) => new Promise<unknown>((resolve, reject) => {
    const ms = callTimeoutMs ?? timeoutMs;
    const deadline = Number.isFinite(ms) ? new Date(Date.now() + ms) : Infinity;
    fn.call(client, req, { deadline }, (err: ServiceError | null, res: unknown) => {
      if (err) reject(new CriError(method, err.code, err.details || err.message));
      else resolve(res);
    });
  });
}

export async function connectCri(endpoint: string, opts: CriOptions = {}): Promise<CriClient> {
  const { RuntimeService, ImageService } = criServices();
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const runtime = new RuntimeService(grpcAddress(endpoint), credentials.createInsecure());
  const images = new ImageService(grpcAddress(opts.imageEndpoint || endpoint), credentials.createInsecure());
  const out: Record<string, unknown> = {};
  for (const m of runtimeMethods) out[m] = bind(runtime, m, timeoutMs);
  for (const m of imageMethods) out[m] = bind(images, m, timeoutMs);
  const stop = out.stopContainer as Call;
  // the runtime waits up to the grace period before killing; the deadline must outlast it
  out.stopContainer = (req: { timeout?: number } = {}, t?: number) => stop(req, t ?? timeoutMs + Number(req.timeout ?? 0) * 1000);
  // pulls take as long as the image is big; the runtime reports no progress to time them by
  const pull = out.pullImage as Call;
  out.pullImage = (req: object = {}, t?: number) => pull(req, t ?? Infinity);
  out.close = () => { runtime.close(); images.close(); };
  return out as CriClient;
}
