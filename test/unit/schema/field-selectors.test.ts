import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/api/object.ts';
import { formatFieldSelector, matchesFields, parseFieldSelector } from '../../../src/api/selectors/field.ts';
import { StatusError } from '../../../src/api/status.ts';
import {
  convertFieldSelector, fieldFilter, fieldsOf, supportedFieldLabels, unsupportedFieldLabelMessage, validateFieldSelector,
} from '../../../src/schema/field-selectors.ts';

function rejection(group: string, resource: string, selector: string, version = 'v1'): string {
  try {
    convertFieldSelector(group, resource, version, parseFieldSelector(selector));
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail(`${selector} accepted for ${group}/${resource}`);
}

const accepts = (group: string, resource: string, selector: string) =>
  assert.doesNotThrow(() => convertFieldSelector(group, resource, 'v1', parseFieldSelector(selector)), selector);

const select = (group: string, resource: string, selector: string, obj: KubeObject) => {
  const sel = convertFieldSelector(group, resource, 'v1', parseFieldSelector(selector));
  return matchesFields(sel, fieldsOf(group, resource, obj));
};

test('each resource accepts exactly Kubernetes 1.36 labels', () => {
  const expect: Array<[string, string, string[]]> = [
    ['', 'pods', ['metadata.name', 'metadata.namespace', 'spec.host', 'spec.hostNetwork', 'spec.nodeName', 'spec.restartPolicy',
      'spec.schedulerName', 'spec.serviceAccountName', 'status.nominatedNodeName', 'status.phase', 'status.podIP', 'status.podIPs']],
    ['', 'nodes', ['metadata.name', 'spec.unschedulable']],
    ['', 'namespaces', ['metadata.name', 'status.phase']],
    ['', 'secrets', ['metadata.name', 'metadata.namespace', 'type']],
    ['', 'services', ['metadata.name', 'metadata.namespace', 'spec.clusterIP', 'spec.type']],
    ['', 'replicationcontrollers', ['metadata.name', 'metadata.namespace', 'status.replicas']],
    ['', 'configmaps', ['metadata.name', 'metadata.namespace']],
    ['apps', 'replicasets', ['metadata.name', 'metadata.namespace']],
    ['batch', 'jobs', ['metadata.name', 'metadata.namespace', 'status.successful']],
    ['batch', 'cronjobs', ['metadata.name', 'metadata.namespace']],
    ['certificates.k8s.io', 'certificatesigningrequests', ['metadata.name', 'spec.signerName']],
    ['certificates.k8s.io', 'clustertrustbundles', ['metadata.name', 'spec.signerName']],
    ['certificates.k8s.io', 'podcertificaterequests', ['metadata.name', 'spec.nodeName', 'spec.podName', 'spec.signerName']],
    ['resource.k8s.io', 'resourceslices', ['metadata.name', 'spec.driver', 'spec.nodeName']],
  ];
  for (const [group, resource, labels] of expect) assert.deepEqual(supportedFieldLabels(group, resource), labels, `${group}/${resource}`);
  const coreEvents = supportedFieldLabels('', 'events');
  for (const l of ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
    'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type']) assert.ok(coreEvents.includes(l), l);
  assert.ok(!coreEvents.some(l => l.startsWith('regarding.')));
  const newEvents = supportedFieldLabels('events.k8s.io', 'events');
  for (const l of ['regarding.kind', 'regarding.name', 'regarding.fieldPath', 'reportingController', 'reason', 'source', 'type']) assert.ok(newEvents.includes(l), l);
  assert.ok(!newEvents.some(l => l.startsWith('involvedObject.') || l === 'reportingComponent'));
});

test('unsupported labels: each resource words it as Kubernetes does', () => {
  assert.equal(rejection('', 'pods', 'foo=bar'), 'field label not supported: foo');
  assert.equal(rejection('', 'pods', 'status.hostIP=1.2.3.4'), 'field label not supported: status.hostIP');
  assert.equal(rejection('', 'nodes', 'metadata.namespace=x'), 'field label not supported: metadata.namespace');
  assert.equal(rejection('', 'namespaces', 'metadata.namespace=x'), 'field label not supported: metadata.namespace');
  assert.equal(rejection('', 'events', 'regarding.kind=Pod'), 'field label not supported: regarding.kind');
  assert.equal(rejection('events.k8s.io', 'events', 'involvedObject.kind=Pod'), 'field label not supported: involvedObject.kind');
  assert.equal(rejection('batch', 'jobs', 'status.active=1'), 'field label "status.active" not supported for Job');
  assert.equal(rejection('resource.k8s.io', 'resourceslices', 'spec.pool=x', 'v1beta2'),
    'field label not supported for resource.k8s.io/v1beta2, Kind=ResourceSlice: spec.pool');
  assert.equal(rejection('networking.k8s.io', 'ingresses', 'foo.bar=baz'),
    '"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"');
  assert.equal(rejection('apps', 'replicasets', 'status.replicas=0'),
    '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
  // nothing is trimmed, so a spaced term names a different field
  assert.equal(rejection('', 'pods', 'metadata.name = x'), 'field label not supported: metadata.name ');
  // the first bad label in evaluation (sorted) order is the one reported
  assert.equal(rejection('', 'pods', 'zzz=1,aaa=2'), 'field label not supported: aaa');
  assert.equal(unsupportedFieldLabelMessage('', 'configmaps', 'v1', 'data'), '"data" is not a known field selector: only "metadata.name", "metadata.namespace"');
});

test('cluster-scoped resources without their own rule accept metadata.namespace', () => {
  accepts('rbac.authorization.k8s.io', 'clusterroles', 'metadata.namespace=');
  assert.equal(select('rbac.authorization.k8s.io', 'clusterroles', 'metadata.namespace=', { metadata: { name: 'admin' } }), true);
  assert.equal(select('rbac.authorization.k8s.io', 'clusterroles', 'metadata.namespace=x', { metadata: { name: 'admin' } }), false);
});

test('validateFieldSelector rewrites aliases', () => {
  const sel = parseFieldSelector('spec.host=n1');
  assert.equal(formatFieldSelector(validateFieldSelector('', 'pods', sel)), 'spec.nodeName=n1');
  assert.equal(formatFieldSelector(validateFieldSelector('', 'pods', sel, 'v1')), 'spec.nodeName=n1');
  try {
    validateFieldSelector('resource.k8s.io', 'resourceslices', parseFieldSelector('x=1'), 'v1');
    assert.fail('accepted');
  } catch (e) {
    // the server message carries no "Unable to find" prefix: kubectl adds that itself
    assert.equal((e as StatusError).message, 'field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: x');
  }
});

const pod: KubeObject = {
  metadata: { name: 'web-1', namespace: 'shop' },
  spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'sa', hostNetwork: true },
  status: { phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }], nominatedNodeName: 'n2' },
};

test('pod fields', () => {
  assert.deepEqual(fieldsOf('', 'pods', pod), {
    'metadata.name': 'web-1', 'metadata.namespace': 'shop', 'spec.nodeName': 'n1', 'spec.host': 'n1',
    'spec.restartPolicy': 'Always', 'spec.schedulerName': 'default-scheduler', 'spec.serviceAccountName': 'sa',
    'spec.hostNetwork': 'true', 'status.phase': 'Running', 'status.podIP': '10.0.0.5', 'status.podIPs': '',
    'status.nominatedNodeName': 'n2',
  });
  const bare = fieldsOf('', 'pods', { metadata: { name: 'p' } });
  assert.equal(bare['spec.hostNetwork'], 'false');
  assert.equal(bare['spec.nodeName'], '');
  assert.equal(bare['metadata.namespace'], '');
  // podIPs alone supplies podIP; the deprecated serviceAccount fills in for serviceAccountName
  const other = fieldsOf('', 'pods', { metadata: { name: 'p' }, spec: { serviceAccount: 'old' }, status: { podIPs: [{ ip: '10.1.1.1' }] } });
  assert.equal(other['status.podIP'], '10.1.1.1');
  assert.equal(other['spec.serviceAccountName'], 'old');
  assert.equal(select('', 'pods', 'spec.nodeName=n1,status.phase!=Failed', pod), true);
  assert.equal(select('', 'pods', 'spec.host=n1', pod), true);
  assert.equal(select('', 'pods', 'spec.host=n2', pod), false);
  assert.equal(select('', 'pods', 'spec.hostNetwork=true', pod), true);
  // Kubernetes accepts status.podIPs but never fills it in
  assert.equal(select('', 'pods', 'status.podIPs=10.0.0.5', pod), false);
  assert.equal(select('', 'pods', 'status.podIPs=', pod), true);
  // the unconverted selector matches too, so callers may skip the conversion
  assert.equal(matchesFields(parseFieldSelector('spec.host=n1'), fieldsOf('', 'pods', pod)), true);
});

test('core and events.k8s.io event fields', () => {
  const core: KubeObject = {
    metadata: { name: 'e1', namespace: 'shop' },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'u1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' },
    reason: 'Started', type: 'Normal', source: { component: 'kubelet' }, reportingComponent: 'kubelet-x',
  };
  const f = fieldsOf('', 'events', core);
  assert.equal(f['involvedObject.kind'], 'Pod');
  assert.equal(f['involvedObject.uid'], 'u1');
  assert.equal(f['involvedObject.fieldPath'], 'spec.containers{app}');
  assert.equal(f.reason, 'Started');
  assert.equal(f.type, 'Normal');
  assert.equal(f.source, 'kubelet');
  assert.equal(f.reportingComponent, 'kubelet-x');
  assert.equal(fieldsOf('', 'events', { ...core, source: {} }).source, 'kubelet-x');
  assert.equal(select('', 'events', 'involvedObject.kind=Pod,involvedObject.name=web-1,type!=Warning', core), true);

  const modern: KubeObject = {
    metadata: { name: 'e2', namespace: 'shop' },
    regarding: { kind: 'Deployment', name: 'web', namespace: 'shop' },
    reason: 'ScalingReplicaSet', type: 'Normal', reportingController: 'deployment-controller',
  };
  const g = fieldsOf('events.k8s.io', 'events', modern);
  assert.equal(g['regarding.kind'], 'Deployment');
  assert.equal(g.reportingController, 'deployment-controller');
  assert.equal(g.source, 'deployment-controller');
  assert.equal(select('events.k8s.io', 'events', 'regarding.kind=Deployment,reportingController=deployment-controller', modern), true);
  assert.equal(matchesFields(parseFieldSelector('regarding.name=web'), g), true);
  // a core-shaped object read through events.k8s.io labels
  assert.equal(select('events.k8s.io', 'events', 'regarding.name=web-1,reportingController=kubelet-x', core), true);
});

test('fields of the other resources with their own rules', () => {
  assert.equal(select('', 'secrets', 'type=kubernetes.io/tls', { metadata: { name: 's' }, type: 'kubernetes.io/tls' }), true);
  assert.equal(select('', 'secrets', 'type=Opaque', { metadata: { name: 's' }, type: 'kubernetes.io/tls' }), false);
  assert.equal(select('', 'nodes', 'spec.unschedulable=true', { metadata: { name: 'n' }, spec: { unschedulable: true } }), true);
  assert.equal(select('', 'nodes', 'spec.unschedulable=false', { metadata: { name: 'n' }, spec: {} }), true);
  assert.equal(select('', 'namespaces', 'status.phase=Terminating', { metadata: { name: 'x' }, status: { phase: 'Terminating' } }), true);
  assert.equal(select('', 'replicationcontrollers', 'status.replicas=3', { metadata: { name: 'r' }, status: { replicas: 3 } }), true);
  assert.equal(select('', 'replicationcontrollers', 'status.replicas=0', { metadata: { name: 'r' } }), true);
  assert.equal(select('', 'services', 'spec.type=ClusterIP,spec.clusterIP=10.96.0.1', { metadata: { name: 'k' }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.1' } }), true);
  assert.equal(select('batch', 'jobs', 'status.successful=2', { metadata: { name: 'j' }, status: { succeeded: 2 } }), true);
  assert.equal(select('batch', 'jobs', 'status.successful=0', { metadata: { name: 'j' }, status: {} }), true);
  const csr = { metadata: { name: 'c' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client' } };
  assert.equal(select('certificates.k8s.io', 'certificatesigningrequests', 'spec.signerName=kubernetes.io/kube-apiserver-client', csr), true);
  const pcr = { metadata: { name: 'p', namespace: 'ns' }, spec: { signerName: 's', podName: 'pod', nodeName: 'n1' } };
  assert.equal(select('certificates.k8s.io', 'podcertificaterequests', 'spec.podName=pod,spec.nodeName=n1', pcr), true);
  const slice = { metadata: { name: 's' }, spec: { driver: 'gpu.example.com', nodeName: 'n1' } };
  assert.equal(select('resource.k8s.io', 'resourceslices', 'spec.driver=gpu.example.com,spec.nodeName=n1', slice), true);
  assert.equal(select('resource.k8s.io', 'resourceslices', 'spec.nodeName=', { metadata: { name: 's' }, spec: { driver: 'd', allNodes: true } }), true);
});

test('metadata fields for any resource', () => {
  const cm = { metadata: { name: 'cfg', namespace: 'default' } };
  assert.deepEqual(fieldsOf('', 'configmaps', cm), { 'metadata.name': 'cfg', 'metadata.namespace': 'default' });
  assert.equal(select('', 'configmaps', 'metadata.name=cfg,metadata.namespace!=kube-system', cm), true);
  assert.equal(select('', 'configmaps', 'metadata.name=other', cm), false);
});

test('fieldFilter agrees with fieldsOf + matchesFields', () => {
  const selectors = ['spec.nodeName=n1', 'spec.host=n1', 'spec.nodeName!=n1', 'status.phase=Running,spec.hostNetwork=true',
    'status.podIPs=', 'status.podIPs!=', 'metadata.namespace=shop,metadata.name!=web-1', 'status.podIP=10.0.0.5', 'spec.schedulerName='];
  const pods: KubeObject[] = [pod, { metadata: { name: 'p', namespace: 'shop' } }, { metadata: { name: 'q' }, spec: { nodeName: 'n2' } }];
  let matched = 0;
  for (const s of selectors) {
    const sel = parseFieldSelector(s);
    const filter = fieldFilter('', 'pods', sel);
    for (const p of pods) {
      const expected = matchesFields(sel, fieldsOf('', 'pods', p));
      assert.equal(filter(p), expected, `${s} on ${p.metadata.name}`);
      if (expected) matched++;
    }
  }
  assert.ok(matched > 5 && matched < selectors.length * pods.length);
});
