// The restricted checks, one table row per behaviour, and where their versions begin: each row
// is the pod, the version asked for, and the refusal's text as kube-apiserver words it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { c, rc, restrictedPod, verdict, type Spec } from './pods.ts';
import type { Version } from '../../../../../../src/apiserver/admission/plugins/pod-security/policy.ts';

type Row = [what: string, spec: Spec, expected: string, version?: Version];
const plain = (...names: string[]): Spec => ({ containers: names.map(n => c(n)) });

const rows: Row[] = [
  ['a pod meeting restricted', restrictedPod(), ''],
  ['a plain pod: the four usual reasons', plain('c'), 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'],
  ['init, regular and ephemeral containers, in that order', { ...restrictedPod(), initContainers: [rc('i', { allowPrivilegeEscalation: true })], containers: [rc('a'), rc('b', { allowPrivilegeEscalation: true })], ephemeralContainers: [c('e', { capabilities: { drop: ['ALL'] } })] }, 'allowPrivilegeEscalation != false (containers "i", "b", "e" must set securityContext.allowPrivilegeEscalation=false)'],
  ['drop ALL missing and capabilities added', restrictedPod({ containers: [rc('a', { capabilities: { drop: ['NET_RAW'], add: ['NET_BIND_SERVICE', 'SYS_TIME', 'CHOWN'] } }), rc('b', { capabilities: { drop: ['ALL'], add: ['CHOWN'] } })] }), 'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b" must not include "CHOWN", "SYS_TIME" in securityContext.capabilities.add)'],
  ['restricted capabilities replace the baseline check', restrictedPod({ containers: [rc('a', { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } })] }), 'unrestricted capabilities (container "a" must not include "SYS_ADMIN" in securityContext.capabilities.add)'],
  ['before v1.22 the baseline capabilities check stands', restrictedPod({ containers: [c('a', { allowPrivilegeEscalation: false, capabilities: { add: ['SYS_ADMIN'] } })] }), 'non-default capabilities (container "a" must not include "SYS_ADMIN" in securityContext.capabilities.add)', 21],
  ['runAsNonRoot=false on pod and containers', restrictedPod({ containers: [rc('a', { runAsNonRoot: false }), rc('b'), rc('d', { runAsNonRoot: false })] }, { runAsNonRoot: false }), 'runAsNonRoot != true (pod and containers "a", "d" must not set securityContext.runAsNonRoot=false)'],
  ['containers left without runAsNonRoot; a non-zero runAsUser does not count', restrictedPod({ containers: [rc('a', { runAsNonRoot: true }), rc('b', { runAsUser: 1000 })] }, { runAsNonRoot: undefined, runAsUser: 1000 }), 'runAsNonRoot != true (pod or container "b" must set securityContext.runAsNonRoot=true)'],
  ['runAsUser=0 on pod and containers', restrictedPod({ containers: [rc('a', { runAsUser: 0 }), rc('b', { runAsUser: 1 })] }, { runAsUser: 0 }), 'runAsUser=0 (pod and container "a" must not set runAsUser=0)'],
  ['runAsUser=0 is not checked before v1.23', restrictedPod({}, { runAsUser: 0 }), '', 22],
  ['a user namespace relaxes runAsNonRoot and runAsUser from v1.35', { ...restrictedPod({}, { runAsNonRoot: false, runAsUser: 0 }), hostUsers: false }, ''],
  ['but not at v1.34', { ...restrictedPod({}, { runAsNonRoot: false, runAsUser: 0 }), hostUsers: false }, 'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)', 34],
  ['restricted keeps procMount strict in a user namespace (v1.35+)', { ...restrictedPod({ containers: [rc('a', { procMount: 'Unmasked' })] }), hostUsers: false }, 'procMount (container "a" must not set securityContext.procMount to "Unmasked")'],
  ['seccomp: bad types from pod and containers, sorted', restrictedPod({ containers: [rc('a', { seccompProfile: { type: 'Unconfined' } }), rc('b', { seccompProfile: { type: 'Other' } })] }, { seccompProfile: { type: 'Unconfined' } }), 'seccompProfile (pod and containers "a", "b" must not set securityContext.seccompProfile.type to "Other", "Unconfined")'],
  ['seccomp: containers without a profile when the pod has none', restrictedPod({ containers: [rc('a', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } }), rc('b')] }, { seccompProfile: undefined }), 'seccompProfile (pod or container "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")'],
  ['seccomp before v1.19: the baseline annotation check, so no requirement', restrictedPod({}, { seccompProfile: undefined }), '', 18],
  ['Windows pods skip the Linux-only checks from v1.25', { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [c('w')] }, ''],
  ['Windows pods before v1.25', { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [c('w')] }, 'allowPrivilegeEscalation != false (container "w" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "w" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "w" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")', 24],
  ['allowPrivilegeEscalation is not checked before v1.8', restrictedPod({ containers: [c('a', { capabilities: { drop: ['ALL'] } })] }), '', 7],
  ['volume types outside the allowed set, sorted', restrictedPod({ volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }, { name: 'ok', configMap: { name: 'x' } }, { name: 'h', hostPath: { path: '/' } }, { name: 'g', gitRepo: { repository: 'r' } }] }), 'restricted volume types (volumes "n", "h", "g" use restricted volume types "gitRepo", "hostPath", "nfs")'],
  ['restricted volumes replace the hostPath check', restrictedPod({ volumes: [{ name: 'h', hostPath: { path: '/' } }] }), 'restricted volume types (volume "h" uses restricted volume type "hostPath")'],
  ['every allowed volume type', restrictedPod({ volumes: ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'].map((t, i) => ({ name: `v${i}`, [t]: {} })) }), ''],
  ['a volume of no known type', restrictedPod({ volumes: [{ name: 'x', somethingNew: {} }] }), 'restricted volume types (volume "x" uses restricted volume type "unknown")'],
];

test('restricted checks at latest unless the row says: each violation in Kubernetes\' words', () => {
  for (const [what, spec, expected, version = 'latest'] of rows) assert.equal(verdict('restricted', version, spec), expected, what);
});

test('restricted lists the baseline violations first, then its own, each group by check id', () => {
  const spec = { hostNetwork: true, containers: [c('a', { privileged: true, runAsUser: 0 })] };
  assert.equal(verdict('restricted', 'latest', spec), [
    'host namespaces (hostNetwork=true)', 'privileged (container "a" must not set securityContext.privileged=true)',
    'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)',
    'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"])',
    'runAsNonRoot != true (pod or container "a" must set securityContext.runAsNonRoot=true)',
    'runAsUser=0 (container "a" must not set runAsUser=0)',
    'seccompProfile (pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ].join(', '));
});

test('versions past the newest rules (v1.35) and "latest" evaluate alike; old versions lack later rules', () => {
  const spec = { ...restrictedPod({ containers: [rc('a', {}, { livenessProbe: { httpGet: { port: 1, host: 'h' } } })] }), hostUsers: false };
  const latest = verdict('restricted', 'latest', spec);
  assert.equal(latest, 'probe or lifecycle host (container "a" uses probe or lifecycle host "h")');
  for (const v of [35, 36, 99] as const) assert.equal(verdict('restricted', v, spec), latest, `v1.${v}`);
  assert.equal(verdict('restricted', 33, spec), '');
  assert.equal(verdict('baseline', 0, { containers: [c('a', { runAsUser: 0 })] }), '');
});
