// The labels and annotations that tie runtime sandboxes and containers to pods. They are the
// names Kubernetes uses, so tools that read a node's runtime (crictl) show our pods the same way,
// and so the agent can rebuild its view of every pod from the runtime alone after a restart.

export const POD_NAME = 'io.kubernetes.pod.name';
export const POD_NAMESPACE = 'io.kubernetes.pod.namespace';
export const POD_UID = 'io.kubernetes.pod.uid';
export const CONTAINER_NAME = 'io.kubernetes.container.name';
export const CONTAINER_HASH = 'io.kubernetes.container.hash';
export const CONTAINER_RESTART_COUNT = 'io.kubernetes.container.restartCount';
export const TERMINATION_GRACE = 'io.kubernetes.pod.terminationGracePeriod';
export const TERMINATION_MESSAGE_PATH = 'io.kubernetes.container.terminationMessagePath';
export const TERMINATION_MESSAGE_POLICY = 'io.kubernetes.container.terminationMessagePolicy';
/** where on the host the container's termination message file is (the agent reads it after the exit) */
export const TERMINATION_LOG_HOST = 'orch.io/termination-log';
/** containers the agent made carry this so it never touches other clients' containers */
export const MANAGED_BY = 'io.kubernetes.container.managed-by';
export const MANAGED_BY_VALUE = 'orch-agent';

export function sandboxLabels(pod: { metadata: { name: string; namespace: string; uid: string; labels?: Record<string, string> } }): Record<string, string> {
  return { ...(pod.metadata.labels ?? {}), [POD_NAME]: pod.metadata.name, [POD_NAMESPACE]: pod.metadata.namespace, [POD_UID]: pod.metadata.uid, [MANAGED_BY]: MANAGED_BY_VALUE };
}

export function containerLabels(pod: { metadata: { name: string; namespace: string; uid: string } }, container: string): Record<string, string> {
  return { [POD_NAME]: pod.metadata.name, [POD_NAMESPACE]: pod.metadata.namespace, [POD_UID]: pod.metadata.uid, [CONTAINER_NAME]: container, [MANAGED_BY]: MANAGED_BY_VALUE };
}
