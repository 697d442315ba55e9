// The shapes the pod workers read and write. Pods come from the API as JSON, so the types are
// loose: the fields the agent uses are named, the rest passes through untouched.

import type { CoreV1Container, CoreV1Pod, CoreV1PodSpec, CoreV1PodStatus } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';

/** Kubernetes' shape as the agent writes it: any field may be left out, and Go's nil times are null */
export type Written<T> = T extends Array<infer U> ? Array<Written<U>> : T extends object ? { [K in keyof T]?: Written<T[K]> | null } : T;
/** a pod status as the agent reports it */
export type PodStatus = Written<CoreV1PodStatus>;

export type Container = CoreV1Container;
export type PodSpec = CoreV1PodSpec;
/** a pod as the agent holds it: from the API (or a static manifest), with its uid and spec */
export type Pod = ServedInNamespace<CoreV1Pod> & { metadata: { uid: string }; spec: PodSpec };

/** a container as the runtime reports it, with the details ContainerStatus adds for exited ones */
export interface RuntimeContainer {
  id: string;
  sandboxId: string;
  name: string;
  attempt: number;
  state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
  image: string;
  imageRef: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  message?: string;
  /** the signal the runtime stops it with, as the pod status names it (absent: its default) */
  stopSignal?: string;
  /** the spec hash recorded at creation: a changed spec restarts the container */
  hash?: string;
  restartCount: number;
}

export interface RuntimeSandbox {
  id: string;
  attempt: number;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  createdAt: number;
  ip?: string;
  additionalIps?: string[];
}

/** one pod's sandboxes and containers, newest first */
export interface RuntimePod {
  uid: string;
  name: string;
  namespace: string;
  sandboxes: RuntimeSandbox[];
  containers: RuntimeContainer[];
}

export const podKey = (pod: Pod): string => `${pod.metadata.namespace}/${pod.metadata.name}`;
/** how the kubelet names a pod in messages: name_namespace(uid) */
export const podDescription = (pod: Pod): string => `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
