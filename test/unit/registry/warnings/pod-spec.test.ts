// kube-apiserver's pod warnings (src/registry/warnings/pod-spec.ts, pod-containers.ts,
// node-labels.ts) as data: each input with the exact texts and field paths Kubernetes gives,
// for a pod (no prefix) and for a template (its path before every field).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podWarnings, type PodParts } from '../../../../src/registry/warnings/pod-spec.ts';

const c = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'busybox', ...extra });
const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>): PodParts =>
  ({ metadata: annotations ? { annotations } : {}, spec: { containers: [c()], ...spec } } as PodParts);

const cases: Array<[string, PodParts, string[]]> = [
  ['nothing to say', pod({}), []],
  ['deprecated node labels in nodeSelector', pod({ nodeSelector: { 'beta.kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'linux' } }), [
    'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
    'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
  ]],
  ['deprecated node labels in node affinity', pod({ affinity: { nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }, { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'Exists' }] }] },
    preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'beta.kubernetes.io/instance-type', operator: 'Exists' }] } }],
  } } }), [
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  ]],
  ['topology spread on a deprecated key, without a selector', pod({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'failure-domain.beta.kubernetes.io/region', whenUnsatisfiable: 'DoNotSchedule' }] }), [
    'spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    'spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod',
  ]],
  ['deprecated annotations', pod({}, { 'scheduler.alpha.kubernetes.io/critical-pod': '', 'security.alpha.kubernetes.io/sysctls': 'a=b' }), [
    'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
    'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
  ]],
  ['seccomp annotations without their fields', pod({ containers: [c(), c({ name: 'b', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } })] }, {
    'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
    'container.seccomp.security.alpha.kubernetes.io/app': 'runtime/default',
    'container.seccomp.security.alpha.kubernetes.io/b': 'runtime/default',
  }), [
    'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
    'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/app]: non-functional in v1.27+; use the "seccompProfile" field instead',
  ]],
  ['a pod seccomp field silences the pod annotation', pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }, { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' }), []],
  ['a pod AppArmor annotation is told on create by the strategy, not here', pod({}, { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' }), []],
  ['deprecated and removed volume types', pod({ volumes: [
    { name: 'a', gitRepo: { repository: 'https://example.com/r.git' } },
    { name: 'b', emptyDir: {} },
    { name: 'c', storageos: { volumeName: 'v' } },
    { name: 'd', cephfs: { monitors: ['m'] } },
    { name: 'e', rbd: { monitors: ['m'], image: 'i' } },
    { name: 'f', glusterfs: { endpoints: 'e', path: 'p' } },
    { name: 'g', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 's' } } },
    { name: 'h', photonPersistentDisk: { pdID: 'x' } },
    { name: 'i', flocker: { datasetName: 'd' } },
    { name: 'j', quobyte: { registry: 'r', volume: 'v' } },
  ] }), [
    'spec.volumes[0].gitRepo: deprecated in v1.11',
    'spec.volumes[2].storageOS: deprecated in v1.22, non-functional in v1.25+',
    'spec.volumes[3].cephfs: deprecated in v1.28, non-functional in v1.31+',
    'spec.volumes[4].rbd: deprecated in v1.28, non-functional in v1.31+',
    'spec.volumes[5].glusterfs: deprecated in v1.25, non-functional in v1.26+',
    'spec.volumes[6].scaleIO: deprecated in v1.16, non-functional in v1.22+',
    'spec.volumes[7].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+',
    'spec.volumes[8].flocker: deprecated in v1.22, non-functional in v1.25+',
    'spec.volumes[9].quobyte: deprecated in v1.22, non-functional in v1.25+',
  ]],
  ['duplicate host aliases and pull secrets, an empty pull secret', pod({
    hostAliases: [{ ip: '10.0.0.1', hostnames: ['a'] }, { ip: '10.0.0.2', hostnames: ['b'] }, { ip: '10.0.0.1', hostnames: ['c'] }],
    imagePullSecrets: [{ name: 'r' }, { name: '' }, { name: 'r' }],
  }), [
    'spec.hostAliases[2].ip: duplicate ip "10.0.0.1"',
    'spec.imagePullSecrets[2].name: duplicate name "r"',
    'spec.imagePullSecrets[1].name: invalid empty name ""',
  ]],
  ['fractional byte quantities, canonical as Kubernetes prints them', pod({
    overhead: { memory: '0.5', cpu: '0.5' },
    initContainers: [c({ name: 'init', resources: { requests: { 'ephemeral-storage': '1.5' } } })],
    containers: [c({ resources: { limits: { memory: '100m', cpu: '100m' }, requests: { memory: '1.5Ki' } } }), c({ name: 'whole', resources: { limits: { memory: '1.5Mi', 'ephemeral-storage': '2000m' } } })],
  }), [
    'spec.overhead[memory]: fractional byte value "500m" is invalid, must be an integer',
    'spec.initContainers[0].resources.requests[ephemeral-storage]: fractional byte value "1500m" is invalid, must be an integer',
    'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
  ]],
  ['env names defined twice', pod({ containers: [c({ env: [
    { name: 'A', value: '1' }, { name: 'A', value: '2' },
    { name: 'B', value: 'x' }, { name: 'B', value: '$(B)-more' },
    { name: 'C', value: 'x' }, { name: 'C', value: '$(C)' },
    { name: 'D', value: 'x' }, { name: 'D', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ] })] }), [
    'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
    'spec.containers[0].env[5]: hides previous definition of "C", which may be dropped when using apply',
    'spec.containers[0].env[7]: hides previous definition of "D", which may be dropped when using apply',
  ]],
  ['ports declared twice across containers', pod({ containers: [
    c({ ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP', hostIP: '127.0.0.1' }] }),
    c({ name: 'b', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'UDP' }, { containerPort: 80, protocol: 'TCP', hostPort: 8080 }] }),
    c({ name: 'd', ports: [{ containerPort: 80, protocol: 'TCP', hostPort: 8080, hostIP: '10.0.0.1' }] }),
  ] }), [
    'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:53 Protocol:UDP HostIP:127.0.0.1}',
    'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
    'spec.containers[1].ports[2]: overlapping port definition with spec.containers[0].ports[0]',
    'spec.containers[1].ports[2]: overlapping port definition with spec.containers[1].ports[0]',
    'spec.containers[2].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
    'spec.containers[2].ports[0]: overlapping port definition with spec.containers[1].ports[0]',
    'spec.containers[2].ports[0]: dangerously ambiguous port definition with spec.containers[1].ports[2]',
  ]],
  ['negative grace period', pod({ terminationGracePeriodSeconds: -5 }), ['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1']],
  ['pod (anti-)affinity terms without a selector', pod({ affinity: {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k', labelSelector: {} }, { topologyKey: 'k' }] },
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'k' } }] },
  } }), [
    'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod',
    'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
  ]],
];

for (const [name, input, expected] of cases) {
  test(`pod warnings: ${name}`, () => assert.deepEqual(podWarnings(input), expected));
}

test('a template: every path under its prefix, and its AppArmor annotations told here', () => {
  const template = pod({ nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, terminationGracePeriodSeconds: -1 }, {
    'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
    'container.apparmor.security.beta.kubernetes.io/absent': 'runtime/default',
  });
  assert.deepEqual(podWarnings(template, 'spec.template'), [
    'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
  ]);
});

test('a template: an AppArmor field on the pod or the container silences its annotation', () => {
  const ann = { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' };
  assert.deepEqual(podWarnings(pod({ securityContext: { appArmorProfile: { type: 'Unconfined' } } }, ann), 'template'), []);
  assert.deepEqual(podWarnings(pod({ containers: [c({ securityContext: { appArmorProfile: { type: 'Unconfined' } } })] }, ann), 'template'), []);
});
