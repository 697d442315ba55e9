// The `Pods` service of pods.proto as grpc-js handlers over the agent's local view. Every
// method answers FAILED_PRECONDITION until the view is whole after a (re)start, so a client
// never takes a partial list for the truth; a bad field mask is INVALID_ARGUMENT.

import { status as grpcStatus, type Metadata, type sendUnaryData, type ServerUnaryCall, type ServerWritableStream, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Pod } from '../pods/types.ts';
import { applyMask, FieldMaskError, fieldMaskBinKey, fieldMaskKey, maskFromMetadata, type MaskTree } from './field-mask.ts';
import type { LocalPods } from './local-pods.ts';
import { decodeEmpty, decodeOnePod, decodePodGetRequest, decodePodList, encodeOnePod, encodePodGetRequest, encodePodList } from './messages.ts';

export const podsServiceName = 'v1alpha1.Pods';

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const method = <Req, Res>(name: string, responseStream: boolean, req: (b: Buffer) => Req, encodeReq: (r: Req) => Uint8Array, res: (b: Buffer) => Res) => ({
  path: `/${podsServiceName}/${name}`,
  requestStream: false,
  responseStream,
  requestSerialize: (r: Req) => asBuffer(encodeReq(r)),
  requestDeserialize: req,
  // handlers hand over encoded bytes, so a pod is encoded once per response
  responseSerialize: (b: Uint8Array) => asBuffer(b),
  responseDeserialize: res,
});

/** the service as grpc-js takes it, for the server and for clients (makeGenericClientConstructor) */
export const podsService: ServiceDefinition = {
  ListPods: method('ListPods', false, decodeEmpty, () => new Uint8Array(), decodePodList),
  WatchPods: method('WatchPods', true, decodeEmpty, () => new Uint8Array(), decodeOnePod),
  GetPod: method('GetPod', false, decodePodGetRequest, encodePodGetRequest, decodeOnePod),
};

export interface ServiceError { code: number; details: string }

/** the call's mask, or the error to answer with */
function callMask(md: Metadata): { mask?: MaskTree; error?: ServiceError } {
  try {
    return { mask: maskFromMetadata(md.get(fieldMaskBinKey), md.get(fieldMaskKey)) };
  } catch (err) {
    if (err instanceof FieldMaskError) return { error: { code: grpcStatus.INVALID_ARGUMENT, details: err.message } };
    throw err;
  }
}

const notSynced = (): ServiceError => ({ code: grpcStatus.FAILED_PRECONDITION, details: 'the node agent is starting: its pods are not all known yet' });
const masked = (pod: Pod, mask: MaskTree | undefined) => applyMask(pod as unknown as Record<string, unknown>, mask);

export interface WatchLimits {
  /** responses a watcher may have waiting before it is dropped */
  maxQueued: number;
}

export function podsHandlers(view: LocalPods, limits: WatchLimits = { maxQueued: 256 }): UntypedServiceImplementation {
  return {
    ListPods(call: ServerUnaryCall<unknown, Uint8Array>, done: sendUnaryData<Uint8Array>) {
      if (!view.synced()) return done(notSynced());
      const { mask, error } = callMask(call.metadata);
      if (error) return done(error);
      done(null, encodePodList(view.list().map(p => masked(p, mask))));
    },
    GetPod(call: ServerUnaryCall<{ podUID: string }, Uint8Array>, done: sendUnaryData<Uint8Array>) {
      if (!view.synced()) return done(notSynced());
      const { mask, error } = callMask(call.metadata);
      if (error) return done(error);
      const uid = call.request.podUID;
      if (!uid) return done({ code: grpcStatus.INVALID_ARGUMENT, details: 'podUID is required' });
      const pod = view.get(uid);
      if (!pod) return done({ code: grpcStatus.NOT_FOUND, details: `pod with UID ${uid} not found on this node` });
      done(null, encodeOnePod(masked(pod, mask)));
    },
    WatchPods(call: ServerWritableStream<unknown, Uint8Array>) {
      if (!view.synced()) return fail(call, notSynced());
      const { mask, error } = callMask(call.metadata);
      if (error) return fail(call, error);
      watchStream(call, view, mask, limits);
    },
  };
}

/** ends a stream with a status: grpc-js sends the status of an 'error' it sees (destroy() would send none) */
function fail(call: ServerWritableStream<unknown, Uint8Array>, error: ServiceError): void {
  call.emit('error', Object.assign(new Error(error.details), error));
}

/**
 * Sends each local change to one watcher. The agent never waits for it: while the stream is
 * full, changes queue up to the limit, and a watcher that falls further behind is dropped with
 * RESOURCE_EXHAUSTED (it may watch again, and list to catch up).
 */
function watchStream(call: ServerWritableStream<unknown, Uint8Array>, view: LocalPods, mask: MaskTree | undefined, limits: WatchLimits): void {
  const queue: Pod[] = [];
  let blocked = false;
  let ended = false;
  const flush = () => {
    blocked = false;
    while (queue.length && !blocked) blocked = !call.write(encodeOnePod(masked(queue.shift()!, mask)));
  };
  const end = () => {
    if (ended) return;
    ended = true;
    unwatch();
    call.off('drain', flush);
  };
  const unwatch = view.watch(pod => {
    if (ended) return;
    queue.push(pod);
    if (queue.length > limits.maxQueued) {
      end();
      const details = `watcher too slow: more than ${limits.maxQueued} pod updates waiting`;
      fail(call, { code: grpcStatus.RESOURCE_EXHAUSTED, details });
      return;
    }
    if (!blocked) flush();
  });
  call.on('drain', flush);
  call.on('cancelled', end);
  call.on('close', end);
  call.on('error', end);
}
