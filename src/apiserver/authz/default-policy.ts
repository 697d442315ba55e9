// The cluster roles and bindings a new Kubernetes cluster starts with (its bootstrap policy),
// written as data: [apiGroups, resources, verbs] triples keep the tables readable.

import type { PolicyRule } from './rules.ts';

type R = [string[], string[], string[]];
const rules = (...rs: R[]): PolicyRule[] => rs.map(([apiGroups, resources, verbs]) => ({ apiGroups, resources, verbs }));
const urls = (paths: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs: paths, verbs });

const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const withStatus = (...rs: string[]) => rs.flatMap(r => [r, `${r}/status`]);

export interface DefaultClusterRole {
  name: string;
  rules: PolicyRule[];
  /** the label selecting the roles this one gathers (aggregated roles) */
  aggregateFrom?: string;
  /** labels marking it as part of another aggregated role */
  aggregateTo?: string[];
}

const aggregateLabel = (role: string) => `rbac.authorization.k8s.io/aggregate-to-${role}`;

export const defaultClusterRoles: DefaultClusterRole[] = [
  { name: 'cluster-admin', rules: [...rules([['*'], ['*'], ['*']]), urls(['*'], ['*'])] },
  { name: 'system:discovery', rules: [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:public-info-viewer', rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:basic-user', rules: rules([['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']], [['authentication.k8s.io'], ['selfsubjectreviews'], ['create']]) },
  // service accounts may read the issuer's discovery document and keys (to verify each other's tokens)
  { name: 'system:service-account-issuer-discovery', rules: [urls(['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'], ['get'])] },
  { name: 'system:monitoring', rules: [urls(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])] },
  { name: 'admin', rules: [], aggregateFrom: aggregateLabel('admin') },
  { name: 'edit', rules: [], aggregateFrom: aggregateLabel('edit'), aggregateTo: ['admin'] },
  { name: 'view', rules: [], aggregateFrom: aggregateLabel('view'), aggregateTo: ['edit'] },
  {
    name: 'system:aggregate-to-admin', aggregateTo: ['admin'],
    rules: rules([['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']], [['rbac.authorization.k8s.io'], ['rolebindings', 'roles'], readWrite]),
  },
  {
    name: 'system:aggregate-to-edit', aggregateTo: ['edit'],
    rules: rules(
      [[''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], read],
      [[''], ['serviceaccounts'], ['impersonate']],
      [[''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], write],
      [[''], ['pods/eviction'], ['create']],
      [[''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], write],
      [[''], ['serviceaccounts/token'], ['create']],
      [['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], write],
      [['autoscaling'], ['horizontalpodautoscalers'], write],
      [['batch'], ['cronjobs', 'jobs'], write],
      [['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], write],
      [['policy'], ['poddisruptionbudgets'], write],
      [['networking.k8s.io'], ['ingresses', 'networkpolicies'], write],
      [['coordination.k8s.io'], ['leases'], readWrite],
    ),
  },
  {
    name: 'system:aggregate-to-view', aggregateTo: ['view'],
    rules: rules(
      [[''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], read],
      [[''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], read],
      [[''], ['namespaces'], read],
      [['discovery.k8s.io'], ['endpointslices'], read],
      [['apps'], ['controllerrevisions', ...withStatus('daemonsets', 'deployments', 'replicasets', 'statefulsets'), 'deployments/scale', 'replicasets/scale', 'statefulsets/scale'], read],
      [['autoscaling'], withStatus('horizontalpodautoscalers'), read],
      [['batch'], withStatus('cronjobs', 'jobs'), read],
      [['extensions'], [...withStatus('daemonsets', 'deployments', 'ingresses', 'replicasets'), 'deployments/scale', 'networkpolicies', 'replicasets/scale', 'replicationcontrollers/scale'], read],
      [['policy'], withStatus('poddisruptionbudgets'), read],
      [['networking.k8s.io'], [...withStatus('ingresses'), 'networkpolicies'], read],
      [['metrics.k8s.io'], ['pods', 'nodes'], read],
    ),
  },
  {
    // what a node agent needs; bound to no one (the Node authorizer grants it per node)
    name: 'system:node',
    rules: rules(
      [['authentication.k8s.io'], ['tokenreviews'], ['create']],
      [['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews'], ['create']],
      [[''], ['services'], read],
      [[''], ['nodes'], ['create', 'get', 'list', 'watch']],
      [[''], ['nodes/status'], ['patch', 'update']],
      [[''], ['nodes'], ['patch', 'update']],
      [['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']],
      [[''], ['pods'], read],
      [[''], ['pods'], ['create', 'delete']],
      [[''], ['pods/status'], ['patch', 'update']],
      [[''], ['pods/eviction'], ['create']],
      [[''], ['configmaps', 'secrets'], ['get', 'list', 'watch']],
      [[''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']],
      [[''], ['endpoints'], ['get']],
      [['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']],
      [['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']],
      [['storage.k8s.io'], ['volumeattachments', 'csidrivers'], ['get']],
      [[''], ['serviceaccounts/token'], ['create']],
      [[''], ['persistentvolumeclaims/status'], ['get', 'patch', 'update']],
      [['node.k8s.io'], ['runtimeclasses'], read],
      [['resource.k8s.io'], ['resourceclaims', 'resourceslices'], read],
    ),
  },
  // the service proxy (kube-proxy, orch proxy): what it watches to program the node
  {
    name: 'system:node-proxier',
    rules: rules(
      [[''], ['endpoints', 'services'], ['list', 'watch']],
      [[''], ['nodes'], read],
      [['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']],
      [['discovery.k8s.io'], ['endpointslices'], ['list', 'watch']],
    ),
  },
  // full use of node agents' endpoints (logs, exec, stats, metrics, proxy); bound to no one by default
  {
    name: 'system:kubelet-api-admin',
    rules: rules(
      [[''], ['nodes'], read],
      [[''], ['nodes'], ['proxy']],
      [[''], ['nodes/proxy', 'nodes/metrics', 'nodes/spec', 'nodes/stats', 'nodes/log'], ['*']],
    ),
  },
  // orch's own (no Kubernetes counterpart, where a cloud controller does it): the service proxy
  // given a host address for LoadBalancer Services writes it into their status
  { name: 'system:orch:service-load-balancer', rules: rules([[''], ['services/status'], ['patch', 'update']]) },
  // what the scheduler's volume binding writes (claims' selected node, volumes' claimRef)
  {
    name: 'system:volume-scheduler',
    rules: rules(
      [[''], ['persistentvolumes'], ['get', 'list', 'patch', 'update', 'watch']],
      [['storage.k8s.io'], ['storageclasses'], read],
      [[''], ['persistentvolumeclaims'], ['get', 'list', 'patch', 'update', 'watch']],
    ),
  },
  // orch's own (no Kubernetes counterpart): each node agent removes the data of the local-path
  // volumes on its node once they are deleted, and then their finalizer, as the local-path
  // provisioner's helper does in a Kubernetes cluster; the Node authorizer has no rule for it
  { name: 'system:orch:local-path-node', rules: rules([[''], ['persistentvolumes'], ['get', 'list', 'watch', 'update']]) },
  // TLS bootstrapping: who may send a CSR, and whose node client CSRs the approver approves
  { name: 'system:node-bootstrapper', rules: rules([['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']]) },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: rules([['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'], ['create']]) },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: rules([['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'], ['create']]) },
  ...['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'].map(signer => ({
    name: `system:certificates.k8s.io:${signer}-approver`,
    rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: [`kubernetes.io/${signer}`], verbs: ['approve'] }],
  })),
  {
    // what kube-controller-manager needs under its own name: leader election, informers over
    // everything, and tokens for the per-controller service accounts it runs the controllers as
    name: 'system:kube-controller-manager',
    rules: [
      ...rules([['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']], [['coordination.k8s.io'], ['leases'], ['create']]),
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['kube-controller-manager'], verbs: ['get', 'update'] },
      ...rules(
        [[''], ['secrets', 'serviceaccounts'], ['create']],
        [[''], ['secrets'], ['delete']],
        [[''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], ['get']],
        [[''], ['secrets', 'serviceaccounts'], ['update']],
        [['authentication.k8s.io'], ['tokenreviews'], ['create']],
        [['authorization.k8s.io'], ['subjectaccessreviews'], ['create']],
        [['*'], ['*'], ['list', 'watch']],
        [[''], ['serviceaccounts/token'], ['create']],
      ),
    ],
  },
  {
    name: 'system:kube-scheduler',
    rules: rules(
      [['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']],
      [['coordination.k8s.io'], ['leases'], ['create']],
      [['coordination.k8s.io'], ['leases'], ['get', 'update']],
      [[''], ['nodes'], read],
      [[''], ['pods'], ['delete', 'get', 'list', 'watch']],
      [[''], ['bindings', 'pods/binding'], ['create']],
      [[''], ['pods/status'], ['patch', 'update']],
      [[''], ['replicationcontrollers', 'services'], read],
      [['apps', 'extensions'], ['replicasets'], read],
      [['apps'], ['statefulsets'], read],
      [['policy'], ['poddisruptionbudgets'], read],
      [[''], ['persistentvolumeclaims', 'persistentvolumes'], read],
      [['authentication.k8s.io'], ['tokenreviews'], ['create']],
      [['authorization.k8s.io'], ['subjectaccessreviews'], ['create']],
      [['storage.k8s.io'], ['csinodes', 'csidrivers', 'csistoragecapacities', 'storageclasses'], read],
      [[''], ['namespaces'], read],
    ),
  },
];

export interface DefaultBinding { name: string; role: string; subjects: Array<{ kind: 'Group' | 'User'; name: string }> }

export const defaultClusterRoleBindings: DefaultBinding[] = [
  { name: 'cluster-admin', role: 'cluster-admin', subjects: [{ kind: 'Group', name: 'system:masters' }] },
  { name: 'system:discovery', role: 'system:discovery', subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  { name: 'system:basic-user', role: 'system:basic-user', subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  { name: 'system:public-info-viewer', role: 'system:public-info-viewer', subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }] },
  { name: 'system:service-account-issuer-discovery', role: 'system:service-account-issuer-discovery', subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }] },
  { name: 'system:monitoring', role: 'system:monitoring', subjects: [{ kind: 'Group', name: 'system:monitoring' }] },
  { name: 'system:kube-scheduler', role: 'system:kube-scheduler', subjects: [{ kind: 'User', name: 'system:kube-scheduler' }] },
  { name: 'system:volume-scheduler', role: 'system:volume-scheduler', subjects: [{ kind: 'User', name: 'system:kube-scheduler' }] },
  { name: 'system:kube-controller-manager', role: 'system:kube-controller-manager', subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }] },
  { name: 'system:node-proxier', role: 'system:node-proxier', subjects: [{ kind: 'User', name: 'system:kube-proxy' }] },
  { name: 'system:orch:service-load-balancer', role: 'system:orch:service-load-balancer', subjects: [{ kind: 'User', name: 'system:kube-proxy' }] },
  { name: 'system:orch:local-path-node', role: 'system:orch:local-path-node', subjects: [{ kind: 'Group', name: 'system:nodes' }] },
  // TLS bootstrapping as kubeadm sets it up: bootstrap tokens may send CSRs, whose node client
  // certificates are approved automatically, and so are nodes' renewals of their own
  { name: 'kubeadm:kubelet-bootstrap', role: 'system:node-bootstrapper', subjects: [{ kind: 'Group', name: 'system:bootstrappers' }] },
  { name: 'kubeadm:node-autoapprove-bootstrap', role: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', subjects: [{ kind: 'Group', name: 'system:bootstrappers' }] },
  { name: 'kubeadm:node-autoapprove-certificate-rotation', role: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', subjects: [{ kind: 'Group', name: 'system:nodes' }] },
];

export { aggregateLabel };
