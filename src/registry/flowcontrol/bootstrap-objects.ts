// The API Priority and Fairness configuration kube-apiserver v1.35/1.36 keeps in every cluster:
// two mandatory priority levels and flow schemas (exempt, catch-all), which it always restores,
// and the suggested ones, which users may edit or delete. Each is annotated
// `apf.kubernetes.io/autoupdate-spec: "true"`, as the server writes them.

import type {
  FlowcontrolV1FlowSchemaSpec as FlowSchemaSpec,
  FlowcontrolV1PolicyRulesWithSubjects as PolicyRules,
  FlowcontrolV1PriorityLevelConfigurationSpec as PriorityLevelSpec,
  FlowcontrolV1Subject as Subject,
} from '../../schema/generated/types.ts';

export const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

export interface BootstrapObject<S> {
  name: string;
  spec: S;
}

const limited = (shares: number, lendable: number, queuing?: [queues: number, handSize: number, queueLengthLimit: number]): PriorityLevelSpec => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares: shares,
    lendablePercent: lendable,
    limitResponse: queuing
      ? { type: 'Queue', queuing: { queues: queuing[0], handSize: queuing[1], queueLengthLimit: queuing[2] } }
      : { type: 'Reject' },
  },
});

export const mandatoryPriorityLevels: BootstrapObject<PriorityLevelSpec>[] = [
  { name: 'catch-all', spec: limited(5, 0) },
  { name: 'exempt', spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
];

export const suggestedPriorityLevels: BootstrapObject<PriorityLevelSpec>[] = [
  { name: 'system', spec: limited(30, 33, [64, 6, 50]) },
  { name: 'node-high', spec: limited(40, 25, [64, 6, 50]) },
  { name: 'leader-election', spec: limited(10, 0, [16, 4, 50]) },
  { name: 'workload-high', spec: limited(40, 50, [128, 6, 50]) },
  { name: 'workload-low', spec: limited(100, 90, [128, 6, 50]) },
  { name: 'global-default', spec: limited(20, 50, [128, 6, 50]) },
];

const groups = (...names: string[]): Subject[] => names.map(name => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map(name => ({ kind: 'User', user: { name } }));
const kubeSystemAccounts = (...names: string[]): Subject[] => names.map(name => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }));

/** every verb on every resource, namespaced or not, and every non-resource path */
const everything = (subjects: Subject[]): PolicyRules => ({
  subjects,
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});

const schema = (level: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, ...rules: PolicyRules[]): FlowSchemaSpec => ({
  priorityLevelConfiguration: { name: level },
  matchingPrecedence,
  ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
  rules,
});

const everyone = groups('system:unauthenticated', 'system:authenticated');

export const mandatoryFlowSchemas: BootstrapObject<FlowSchemaSpec>[] = [
  { name: 'exempt', spec: schema('exempt', 1, undefined, everything(groups('system:masters'))) },
  { name: 'catch-all', spec: schema('catch-all', 10000, 'ByUser', everything(everyone)) },
];

export const suggestedFlowSchemas: BootstrapObject<FlowSchemaSpec>[] = [
  { name: 'system-nodes', spec: schema('system', 500, 'ByUser', everything(groups('system:nodes'))) },
  {
    name: 'system-node-high',
    spec: schema('node-high', 400, 'ByUser', {
      subjects: groups('system:nodes'),
      resourceRules: [
        { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], namespaces: ['*'], clusterScope: true },
        { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
      ],
    }),
  },
  {
    name: 'probes',
    spec: schema('exempt', 2, undefined, { subjects: everyone, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }),
  },
  {
    name: 'system-leader-election',
    spec: schema('leader-election', 100, 'ByUser', {
      subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemAccounts('*')],
      resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }],
    }),
  },
  { name: 'kube-controller-manager', spec: schema('workload-high', 800, 'ByNamespace', everything(users('system:kube-controller-manager'))) },
  { name: 'kube-scheduler', spec: schema('workload-high', 800, 'ByNamespace', everything(users('system:kube-scheduler'))) },
  { name: 'kube-system-service-accounts', spec: schema('workload-high', 900, 'ByNamespace', everything(kubeSystemAccounts('*'))) },
  { name: 'service-accounts', spec: schema('workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))) },
  { name: 'global-default', spec: schema('global-default', 9900, 'ByUser', everything(everyone)) },
];
