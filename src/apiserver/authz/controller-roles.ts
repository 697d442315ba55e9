// The controllers' roles of Kubernetes' bootstrap policy (system:controller:<name>), each bound
// to the service account kube-system/<name> that kube-controller-manager runs that controller as.
// Written as data: per controller, [apiGroups, resources, verbs] triples; every controller may
// also write events. Where orch's controller does a little more than Kubernetes' (it patches
// where Kubernetes updates), the verb is added here: `patch` on deployments for the deployment
// controller (the revision annotation) and on claims for the statefulset controller (owner
// references of retained claims).

import type { PolicyRule } from './rules.ts';

type R = [string[], string[], string[]];
const c = ['']; // the core group
const apps = ['apps'];
const appsExt = ['apps', 'extensions'];
const batch = ['batch'];
const read = ['get', 'list', 'watch'];

const controllers: Record<string, R[]> = {
  'attachdetach-controller': [[c, ['persistentvolumes', 'persistentvolumeclaims'], ['list', 'watch']], [c, ['nodes'], read], [c, ['nodes/status'], ['patch', 'update']], [c, ['pods'], ['list', 'watch']], [['storage.k8s.io'], ['volumeattachments'], ['get', 'create', 'delete', 'list', 'watch']], [['storage.k8s.io'], ['csidrivers'], read], [['storage.k8s.io'], ['csinodes'], read]],
  'clusterrole-aggregation-controller': [[['rbac.authorization.k8s.io'], ['clusterroles'], ['escalate', 'get', 'list', 'watch', 'update', 'patch']]],
  'certificate-controller': [[['certificates.k8s.io'], ['certificatesigningrequests'], ['get', 'list', 'watch', 'delete']], [['certificates.k8s.io'], ['certificatesigningrequests/status', 'certificatesigningrequests/approval'], ['update']], [['authorization.k8s.io'], ['subjectaccessreviews'], ['create']]],
  'cronjob-controller': [[batch, ['cronjobs'], ['get', 'list', 'watch', 'update']], [batch, ['jobs'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'patch']], [batch, ['cronjobs/status'], ['update']], [batch, ['cronjobs/finalizers'], ['update']], [c, ['pods'], ['list', 'watch', 'delete']]],
  'daemon-set-controller': [[appsExt, ['daemonsets'], read], [appsExt, ['daemonsets/status'], ['update']], [appsExt, ['daemonsets/finalizers'], ['update']], [c, ['nodes'], ['list', 'watch']], [c, ['pods'], ['list', 'watch', 'create', 'delete', 'patch']], [c, ['pods/binding'], ['create']], [apps, ['controllerrevisions'], ['get', 'list', 'watch', 'create', 'delete', 'update', 'patch']]],
  'deployment-controller': [[appsExt, ['deployments'], ['get', 'list', 'watch', 'update', 'patch']], [appsExt, ['deployments/status'], ['update']], [appsExt, ['deployments/finalizers'], ['update']], [appsExt, ['replicasets'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']], [c, ['pods'], ['get', 'list', 'watch', 'update']]],
  'disruption-controller': [[appsExt, ['deployments'], read], [appsExt, ['replicasets'], read], [c, ['replicationcontrollers'], read], [['policy'], ['poddisruptionbudgets'], read], [apps, ['statefulsets'], read], [['policy'], ['poddisruptionbudgets/status'], ['update']], [c, ['pods/status'], ['patch', 'update']], [['*'], ['*/scale'], ['get']]],
  'endpoint-controller': [[c, ['services', 'pods'], read], [c, ['endpoints'], ['get', 'list', 'watch', 'create', 'update', 'delete']], [c, ['endpoints/restricted'], ['create']]],
  'endpointslice-controller': [[c, ['services', 'pods', 'nodes'], read], [c, ['services/finalizers'], ['update']], [['discovery.k8s.io'], ['endpointslices'], ['get', 'list', 'watch', 'create', 'update', 'delete']]],
  'endpointslicemirroring-controller': [[c, ['services', 'endpoints'], read], [c, ['services/finalizers'], ['update']], [c, ['endpoints/finalizers'], ['update']], [['discovery.k8s.io'], ['endpointslices'], ['get', 'list', 'watch', 'create', 'update', 'delete']]],
  'ephemeral-volume-controller': [[c, ['pods'], read], [c, ['pods/finalizers'], ['update']], [c, ['persistentvolumeclaims'], ['get', 'list', 'watch', 'create']]],
  'generic-garbage-collector': [[['*'], ['*'], ['get', 'list', 'watch', 'patch', 'update', 'delete']]],
  'horizontal-pod-autoscaler': [[['autoscaling'], ['horizontalpodautoscalers'], read], [['autoscaling'], ['horizontalpodautoscalers/status'], ['update']], [['*'], ['*/scale'], ['get', 'update']], [c, ['pods'], ['list', 'watch']], [['metrics.k8s.io'], ['pods'], ['list', 'watch']], [['custom.metrics.k8s.io'], ['*'], read], [['external.metrics.k8s.io'], ['*'], read]],
  'job-controller': [[batch, ['jobs'], ['get', 'list', 'watch', 'update', 'patch']], [batch, ['jobs/status'], ['update']], [batch, ['jobs/finalizers'], ['update']], [c, ['pods'], ['list', 'watch', 'create', 'delete', 'patch']]],
  'namespace-controller': [[c, ['namespaces'], ['get', 'list', 'watch', 'delete']], [c, ['namespaces/finalize', 'namespaces/status'], ['update']], [['*'], ['*'], ['get', 'list', 'watch', 'delete', 'deletecollection']]],
  'node-controller': [[c, ['nodes'], ['get', 'list', 'watch', 'update', 'delete', 'patch']], [c, ['nodes/status'], ['patch', 'update']], [c, ['pods/status'], ['patch', 'update']], [c, ['pods'], ['list', 'watch', 'get', 'delete']]],
  // nodes watched besides get/list: orch's local-path provisioner, which runs as this account (the
  // binder provisions in Kubernetes), follows nodes to place volumes
  'persistent-volume-binder': [[c, ['persistentvolumes'], ['create', 'delete', 'get', 'list', 'update', 'watch']], [c, ['persistentvolumes/status'], ['update']], [c, ['persistentvolumeclaims'], ['get', 'list', 'update', 'watch']], [c, ['persistentvolumeclaims/status'], ['update']], [c, ['pods'], ['create', 'delete', 'get', 'list', 'watch']], [['storage.k8s.io'], ['storageclasses'], read], [c, ['endpoints'], ['create', 'delete', 'get', 'update']], [c, ['services'], ['create', 'delete', 'get']], [c, ['secrets'], ['get']], [c, ['nodes'], read]],
  'pod-garbage-collector': [[c, ['pods'], ['list', 'watch', 'delete']], [c, ['nodes'], read], [c, ['pods/status'], ['patch']]],
  'replicaset-controller': [[appsExt, ['replicasets'], ['get', 'list', 'watch', 'update']], [appsExt, ['replicasets/status'], ['update']], [appsExt, ['replicasets/finalizers'], ['update']], [c, ['pods'], ['list', 'watch', 'patch', 'create', 'delete']]],
  'replication-controller': [[c, ['replicationcontrollers'], ['get', 'list', 'watch', 'update']], [c, ['replicationcontrollers/status'], ['update']], [c, ['replicationcontrollers/finalizers'], ['update']], [c, ['pods'], ['list', 'watch', 'patch', 'create', 'delete']]],
  'resourcequota-controller': [[['*'], ['*'], ['list', 'watch']], [c, ['resourcequotas/status'], ['update']]],
  'service-account-controller': [[c, ['serviceaccounts'], ['create']]],
  'statefulset-controller': [[c, ['pods'], ['list', 'watch']], [apps, ['statefulsets'], read], [apps, ['statefulsets/status'], ['update']], [apps, ['statefulsets/finalizers'], ['update']], [c, ['pods'], ['get', 'create', 'delete', 'update', 'patch']], [apps, ['controllerrevisions'], ['get', 'create', 'delete', 'update', 'patch', 'list', 'watch']], [c, ['persistentvolumeclaims'], ['get', 'create', 'list', 'watch']], [c, ['persistentvolumeclaims'], ['update', 'delete', 'patch']], [c, ['pods/finalizers'], ['update']]],
  'taint-eviction-controller': [[c, ['pods'], ['get', 'list', 'watch', 'delete']], [c, ['pods/status'], ['patch']], [c, ['nodes'], read]],
  'ttl-controller': [[c, ['nodes'], ['update', 'patch', 'list', 'watch']]],
  'pvc-protection-controller': [[c, ['persistentvolumeclaims'], ['get', 'list', 'watch', 'update']], [c, ['pods'], ['list', 'watch', 'get']]],
  'pv-protection-controller': [[c, ['persistentvolumes'], ['get', 'list', 'watch', 'update']]],
  'ttl-after-finished-controller': [[batch, ['jobs'], ['get', 'list', 'watch', 'delete']]],
  'root-ca-cert-publisher': [[c, ['configmaps'], ['create', 'update']]],
};

// rules that name the objects they allow, which the triples above cannot say: the certificate
// controller approves node client requests and signs for the signers it runs
const namedRules: Record<string, PolicyRule[]> = {
  'certificate-controller': [
    { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'], verbs: ['approve'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving'], verbs: ['sign'] },
  ],
};

const eventsRule: PolicyRule = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'update', 'patch'] };
// these roles in Kubernetes carry no events rule
const withoutEvents = new Set(['clusterrole-aggregation-controller', 'pod-garbage-collector']);

export const controllerRolePrefix = 'system:controller:';

export function controllerRoles(): Array<{ name: string; serviceAccount: string; rules: PolicyRule[] }> {
  return Object.entries(controllers).map(([sa, triples]) => {
    const rules: PolicyRule[] = triples.map(([apiGroups, resources, verbs]) => ({ apiGroups, resources, verbs }));
    rules.splice(2, 0, ...(namedRules[sa] ?? []));
    if (!withoutEvents.has(sa)) {
      // the events rule sits where Kubernetes lists it: after the controller's own rules
      rules.push(eventsRule);
    }
    return { name: `${controllerRolePrefix}${sa}`, serviceAccount: sa, rules };
  });
}
