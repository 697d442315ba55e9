import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasPrinter, printerFor } from '../../../src/schema/printers/index.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const now = new Date('2026-01-01T01:00:00Z');
const meta = (name: string, extra: object = {}) => ({ name, creationTimestamp: '2026-01-01T00:55:00Z', ...extra });
const cells = (group: string, resource: string, obj: object) => printerFor(group, resource).cells(obj as KubeObject, now);
const columns = (group: string, resource: string) => printerFor(group, resource).columns.map(c => c.priority ? `${c.name}*` : c.name);
const template = { spec: { containers: [{ name: 'c', image: 'nginx' }, { name: 's', image: 'envoy' }] } };

test('deployments, replica sets, stateful sets, daemon sets', () => {
  assert.deepEqual(columns('apps', 'deployments'), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*']);
  const d = { metadata: meta('web'), spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } };
  assert.deepEqual(cells('apps', 'deployments', d), ['web', '2/3', 3, 2, '5m', 'c,s', 'nginx,envoy', 'app=web']);
  assert.deepEqual(cells('apps', 'deployments', { metadata: meta('new'), spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template } }).slice(0, 4), ['new', '0/1', 0, 0]);
  assert.deepEqual(cells('apps', 'replicasets', { metadata: meta('rs'), spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template }, status: { replicas: 2, readyReplicas: 1 } }), ['rs', 2, 2, 1, '5m', 'c,s', 'nginx,envoy', 'app=web']);
  assert.deepEqual(cells('apps', 'statefulsets', { metadata: meta('db'), spec: { replicas: 3, template }, status: { readyReplicas: 1 } }), ['db', '1/3', '5m', 'c,s', 'nginx,envoy']);
  assert.deepEqual(cells('apps', 'daemonsets', { metadata: meta('ds'), spec: { selector: { matchLabels: { k: 'v' } }, template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [] } } }, status: { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1 } }),
    ['ds', 2, 2, 1, 2, 1, 'kubernetes.io/os=linux', '5m', '', '', 'k=v']);
  assert.deepEqual(cells('', 'replicationcontrollers', { metadata: meta('rc'), spec: { replicas: 1, selector: { b: '2', a: '1' } } }).at(-1), 'a=1,b=2');
});

test('services of each type', () => {
  assert.deepEqual(columns('', 'services'), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*']);
  const svc = (spec: object, status: object = {}) => cells('', 'services', { metadata: meta('s'), spec, status });
  assert.deepEqual(svc({ type: 'ClusterIP', clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ port: 443, protocol: 'TCP' }], selector: { app: 'a' } }), ['s', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP', '5m', 'app=a']);
  assert.deepEqual(svc({ type: 'NodePort', clusterIPs: ['10.96.0.9'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }).slice(0, 5), ['s', 'NodePort', '10.96.0.9', '<none>', '80:30080/TCP,53/UDP']);
  assert.equal(svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.2'], ports: [] })[3], '<pending>');
  assert.equal(svc({ type: 'LoadBalancer', externalIPs: ['5.6.7.8'] }, { loadBalancer: { ingress: [{ ip: '9.9.9.9' }, { hostname: 'lb.example' }] } })[3], '9.9.9.9,lb.example,5.6.7.8');
  assert.deepEqual(svc({ type: 'ExternalName', externalName: 'db.example.com' }).slice(2, 5), ['<none>', 'db.example.com', '<none>']);
  assert.deepEqual(svc({ type: 'ClusterIP', clusterIPs: ['None'] }).slice(2, 3), ['None']);
});

test('nodes: readiness, scheduling, roles, wide facts', () => {
  const node = (spec: object, conditions: object[], labels: object = {}) => cells('', 'nodes', {
    metadata: meta('n', { labels }), spec,
    status: { conditions, addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n' }], nodeInfo: { kubeletVersion: 'v1.36.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://2.0' } },
  });
  assert.deepEqual(node({}, [{ type: 'Ready', status: 'True' }], { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'edge' }),
    ['n', 'Ready', 'control-plane,edge,worker', '5m', 'v1.36.0', '10.0.0.1', '<none>', 'Debian', '6.1', 'containerd://2.0']);
  assert.equal(node({ unschedulable: true }, [{ type: 'Ready', status: 'True' }])[1], 'Ready,SchedulingDisabled');
  assert.equal(node({}, [{ type: 'Ready', status: 'Unknown' }])[1], 'NotReady');
  assert.equal(node({}, [{ type: 'Ready', status: 'False' }])[2], '<none>');
  assert.equal(node({ unschedulable: true }, [])[1], 'Unknown,SchedulingDisabled');
});

test('namespaces, config maps, secrets, service accounts, leases', () => {
  assert.deepEqual(cells('', 'namespaces', { metadata: meta('dev'), status: { phase: 'Active' } }), ['dev', 'Active', '5m']);
  assert.deepEqual(cells('', 'namespaces', { metadata: meta('old'), status: { phase: 'Terminating' } })[1], 'Terminating');
  assert.deepEqual(columns('', 'configmaps'), ['Name', 'Data', 'Age']);
  assert.deepEqual(cells('', 'configmaps', { metadata: meta('cm'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['cm', 3, '5m']);
  assert.deepEqual(cells('', 'configmaps', { metadata: meta('empty') }), ['empty', 0, '5m']);
  assert.deepEqual(columns('', 'secrets'), ['Name', 'Type', 'Data', 'Age']);
  assert.deepEqual(cells('', 'secrets', { metadata: meta('s'), type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eA==' } }), ['s', 'kubernetes.io/tls', 2, '5m']);
  assert.deepEqual(cells('', 'serviceaccounts', { metadata: meta('default') }), ['default', 0, '5m']);
  assert.deepEqual(cells('coordination.k8s.io', 'leases', { metadata: meta('kube-scheduler'), spec: { holderIdentity: 'node-1_abc' } }), ['kube-scheduler', 'node-1_abc', '5m']);
});

test('events: last seen, object, message, and the wide facts', () => {
  assert.deepEqual(columns('', 'events'), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']);
  const ev = { metadata: meta('p.1'), involvedObject: { kind: 'Pod', name: 'p', fieldPath: 'spec.containers{c}' }, reason: 'Pulled', message: ' Pulled image \n', type: 'Normal', source: { component: 'kubelet', host: 'n1' }, firstTimestamp: '2026-01-01T00:50:00Z', lastTimestamp: '2026-01-01T00:59:00Z', count: 3 };
  assert.deepEqual(cells('', 'events', ev), ['60s', 'Normal', 'Pulled', 'pod/p', 'spec.containers{c}', 'kubelet, n1', 'Pulled image', '10m', 3, 'p.1']);
  const fresh = { metadata: meta('e'), involvedObject: { kind: 'Node' }, reason: 'R', type: 'Warning', eventTime: '2026-01-01T00:58:00.000000Z', reportingController: 'ctl' };
  assert.deepEqual(cells('', 'events', fresh), ['2m', 'Warning', 'R', 'node', '', 'ctl', '', '2m', 1, 'e']);
});

test('jobs and cron jobs', () => {
  const job = (spec: object, status: object, extra: object = {}) => cells('batch', 'jobs', { metadata: meta('j', extra), spec: { template, ...spec }, status });
  assert.deepEqual(job({ completions: 1 }, { succeeded: 1, startTime: '2026-01-01T00:55:00Z', completionTime: '2026-01-01T00:55:42Z', conditions: [{ type: 'Complete', status: 'True' }] }).slice(0, 5), ['j', 'Complete', '1/1', '42s', '5m']);
  assert.deepEqual(job({ parallelism: 3 }, { startTime: '2026-01-01T00:58:00Z' }).slice(1, 4), ['Running', '0/1 of 3', '2m']);
  assert.equal(job({}, { conditions: [{ type: 'Failed', status: 'True' }] })[1], 'Failed');
  assert.equal(job({}, {}, { deletionTimestamp: '2026-01-01T01:00:00Z' })[1], 'Terminating');
  assert.deepEqual(cells('batch', 'cronjobs', { metadata: meta('cj'), spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } }, status: { active: [{ name: 'x' }], lastScheduleTime: '2026-01-01T00:59:00Z' } }).slice(0, 7),
    ['cj', '*/5 * * * *', '<none>', 'False', 1, '60s', '5m']);
});

test('volumes and claims', () => {
  assert.deepEqual(cells('', 'persistentvolumes', { metadata: meta('pv'), spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'd', name: 'c' }, storageClassName: 'fast', volumeMode: 'Filesystem' }, status: { phase: 'Bound' } }),
    ['pv', '1Gi', 'RWO,RWX', 'Retain', 'Bound', 'd/c', 'fast', '<unset>', '', '5m', 'Filesystem']);
  assert.deepEqual(cells('', 'persistentvolumeclaims', { metadata: meta('c'), spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } }),
    ['c', 'Pending', '', '', '', 'fast', '<unset>', '5m', '<unset>']);
  assert.deepEqual(cells('storage.k8s.io', 'storageclasses', { metadata: meta('std', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'x.io/p' }),
    ['std (default)', 'x.io/p', 'Delete', 'Immediate', false, '5m']);
});

test('bindings, priority classes, ingresses, endpoints, autoscalers, disruption budgets', () => {
  assert.deepEqual(cells('rbac.authorization.k8s.io', 'clusterrolebindings', { metadata: meta('b'), roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u1' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', namespace: 'kube-system', name: 'sa' }, { kind: 'User', name: 'u2' }] }),
    ['b', 'ClusterRole/view', '5m', 'u1, u2', 'g', 'kube-system/sa']);
  assert.deepEqual(cells('scheduling.k8s.io', 'priorityclasses', { metadata: meta('high'), value: 1000, preemptionPolicy: 'Never' }), ['high', 1000, false, '5m', 'Never']);
  assert.deepEqual(cells('networking.k8s.io', 'ingresses', { metadata: meta('i'), spec: { ingressClassName: 'nginx', rules: [{ host: 'a' }, {}, { host: 'b' }, { host: 'c' }, { host: 'd' }], tls: [{}] }, status: { loadBalancer: { ingress: [{ ip: '2.2.2.2' }, { ip: '1.1.1.1' }] } } }),
    ['i', 'nginx', 'a,b,c + 2 more...', '1.1.1.1,2.2.2.2', '80, 443', '5m']);
  assert.deepEqual(cells('', 'endpoints', { metadata: meta('e'), subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] }] }), ['e', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...', '5m']);
  assert.deepEqual(cells('', 'endpoints', { metadata: meta('none') }), ['none', '<none>', '5m']);
  assert.deepEqual(cells('autoscaling', 'horizontalpodautoscalers', { metadata: meta('h'), spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] }, status: { currentReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }] } }),
    ['h', 'Deployment/web', 'cpu: 40%/80%', '1', 5, 2, '5m']);
  assert.deepEqual(cells('policy', 'poddisruptionbudgets', { metadata: meta('pdb'), spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } }), ['pdb', '50%', 'N/A', 1, '5m']);
});

test('resources without printers get Name and Created At', () => {
  for (const [g, r] of [['rbac.authorization.k8s.io', 'roles'], ['rbac.authorization.k8s.io', 'clusterroles'], ['apiextensions.k8s.io', 'customresourcedefinitions'], ['example.com', 'widgets'], ['', 'limitranges']]) {
    assert.equal(hasPrinter(g!, r!), false, r);
    assert.deepEqual(printerFor(g!, r!).columns.map(c => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
  }
  assert.deepEqual(cells('apiextensions.k8s.io', 'customresourcedefinitions', { metadata: meta('widgets.example.com') }), ['widgets.example.com', '2026-01-01T00:55:00Z']);
  assert.equal(hasPrinter('apps', 'deployments'), true);
  // a printer is found by group as well as resource
  assert.notEqual(printerFor('example.com', 'pods'), printerFor('', 'pods'));
});

test('flow schemas and priority levels, with kube-apiserver\'s columns', () => {
  const group = 'flowcontrol.apiserver.k8s.io';
  assert.deepEqual(columns(group, 'flowschemas'), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
  const fs = (extra: object) => cells(group, 'flowschemas', { metadata: meta('f'), spec: { priorityLevelConfiguration: { name: 'system' }, matchingPrecedence: 500, ...extra } });
  assert.deepEqual(fs({ distinguisherMethod: { type: 'ByUser' } }), ['f', 'system', 500, 'ByUser', '5m', '?']);
  const dangling = cells(group, 'flowschemas', { metadata: meta('f'), spec: { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 1 }, status: { conditions: [{ type: 'Dangling', status: 'True' }] } });
  assert.deepEqual(dangling.slice(3), ['<none>', '5m', 'True']);
  assert.deepEqual(columns(group, 'prioritylevelconfigurations'), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  const pl = (s: object) => cells(group, 'prioritylevelconfigurations', { metadata: meta('p'), spec: s });
  assert.deepEqual(pl({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0 } }), ['p', 'Exempt', '<none>', '<none>', '<none>', '<none>', '5m']);
  assert.deepEqual(pl({ type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } }), ['p', 'Limited', 5, '<none>', '<none>', '<none>', '5m']);
  assert.deepEqual(pl({ type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } }), ['p', 'Limited', 30, 64, 6, 50, '5m']);
});
