// The shapes the pod workers read and write. Pods come from the API as JSON, so the types are
// loose: the fields the agent uses are named, the rest passes through untouched.

export type Obj = Record<string, any>;

export interface Container extends Obj {
  name: string;
  image?: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  restartPolicy?: 'Always';
}

export interface PodSpec extends Obj {
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  nodeName?: string;
}

export interface Pod extends Obj {
  metadata: { name: string; namespace: string; uid: string; annotations?: Record<string, string>; labels?: Record<string, string>; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; resourceVersion?: string } & Obj;
  spec: PodSpec;
  status?: Obj;
}

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
