// The pods the in-server controllers hold, seen once. The scheduler, the taint eviction
// controller and the volume controllers each keep every pod in the cluster; in `orch server` they share one informer (as
// kube-controller-manager's controllers share client-go informers), so a pod costs one watch
// event, one parse and one small view instead of two of each.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import { Interned } from '../client/interned.ts';
import type { Client } from '../client/rest.ts';
import type { CoreV1Container, CoreV1Pod, CoreV1PodSpec, CoreV1PodStatus, CoreV1Volume } from '../schema/generated/types.ts';
import type { ServedInNamespace } from '../schema/served.ts';

/** a pod as the controllers hold it */
export type ViewedPod = ServedInNamespace<CoreV1Pod>;

const specs = new Interned<CoreV1PodSpec>();
const statuses = new Interned<CoreV1PodStatus>();

function containerView(c: CoreV1Container): CoreV1Container {
  return {
    name: c.name,
    restartPolicy: c.restartPolicy,
    resources: c.resources?.requests ? { requests: c.resources.requests } : undefined,
    ports: c.ports?.some(p => p.hostPort) ? c.ports.filter(p => p.hostPort) : undefined,
  };
}

/** the volumes that name claims, kept only as the claims they name (for the volume controllers) */
function claimVolumes(volumes: CoreV1Volume[] | undefined): CoreV1Volume[] | undefined {
  const out = (volumes ?? []).filter(v => v.persistentVolumeClaim || v.ephemeral).map(v => (v.persistentVolumeClaim ? { name: v.name, persistentVolumeClaim: { claimName: v.persistentVolumeClaim.claimName } } : { name: v.name, ephemeral: {} }));
  return out.length ? out : undefined;
}

/**
 * A pod placed on a node keeps who it is and what scheduling counts and eviction reads (requests,
 * host ports, tolerations, phase) and the claims its volumes name, its spec and status parts
 * shared between pods with equal ones: most pods only ever matter through those. A pod without a node is kept whole, less its
 * field history, since the scheduler has yet to place it.
 */
export function podView(pod: ViewedPod): ViewedPod {
  if (!pod.spec?.nodeName) return { ...pod, metadata: { ...pod.metadata, managedFields: undefined } };
  const { name, namespace, uid, resourceVersion, deletionTimestamp } = pod.metadata ?? {};
  const s = pod.spec;
  return {
    metadata: deletionTimestamp ? { name, namespace, uid, resourceVersion, deletionTimestamp } : { name, namespace, uid, resourceVersion },
    spec: specs.of({
      nodeName: s.nodeName,
      schedulerName: s.schedulerName,
      tolerations: s.tolerations,
      containers: (s.containers ?? []).map(containerView),
      initContainers: s.initContainers?.map(containerView),
      overhead: s.overhead,
      volumes: claimVolumes(s.volumes),
    }),
    status: statuses.of({ phase: pod.status?.phase }),
  };
}

/** every pod in the cluster, as podView keeps it */
export function podInformer(client: Client, log?: Logger): Informer<ViewedPod> {
  return createInformer(client, '/api/v1/pods', { log, transform: podView });
}
