// The Pod Security Standards' checks as pure decisions: what each level lets through, and each
// violation's reason and detail in Kubernetes' words, in Kubernetes' order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { violations } from '../../../../../../src/apiserver/admission/plugins/pod-security/checks.ts';
import type { CoreV1PodSpec } from '../../../../../../src/schema/generated/types.ts';

const c = (name: string, securityContext: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ name, image: 'i', securityContext, ...extra });
const restrictedContainer = (name: string) => c(name, { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
const spec = (s: Record<string, unknown>) => s as unknown as CoreV1PodSpec;

test('a plain pod passes baseline and fails restricted with the four usual reasons, in Kubernetes\' order and words', () => {
  const plain = spec({ containers: [{ name: 'c', image: 'i' }] });
  assert.deepEqual(violations('privileged', plain), []);
  assert.deepEqual(violations('baseline', plain), []);
  assert.deepEqual(violations('restricted', plain), [
    { reason: 'allowPrivilegeEscalation != false', detail: 'container "c" must set securityContext.allowPrivilegeEscalation=false' },
    { reason: 'unrestricted capabilities', detail: 'container "c" must set securityContext.capabilities.drop=["ALL"]' },
    { reason: 'runAsNonRoot != true', detail: 'pod or container "c" must set securityContext.runAsNonRoot=true' },
    { reason: 'seccompProfile', detail: 'pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' },
  ]);
  assert.deepEqual(violations('restricted', spec({ containers: [restrictedContainer('a')], initContainers: [restrictedContainer('i')] })), []);
});

test('several containers are named together, in the plural', () => {
  const vs = violations('restricted', spec({ securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { capabilities: { drop: ['ALL'] } }), c('b', { capabilities: { drop: ['ALL'], add: ['SYS_TIME', 'NET_BIND_SERVICE'] } })] }));
  assert.deepEqual(vs, [
    { reason: 'allowPrivilegeEscalation != false', detail: 'containers "a", "b" must set securityContext.allowPrivilegeEscalation=false' },
    { reason: 'unrestricted capabilities', detail: 'container "b" must not include "SYS_TIME" in securityContext.capabilities.add' },
  ]);
});

test('baseline: privileged, host namespaces, hostPath, hostPorts, capabilities, procMount, seccomp Unconfined, sysctls, hostProcess', () => {
  const vs = violations('baseline', spec({
    hostNetwork: true, hostPID: true,
    securityContext: { seccompProfile: { type: 'Unconfined' }, sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'kernel.msgmax', value: '1' }] },
    volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'e', emptyDir: {} }],
    containers: [c('a', { privileged: true, capabilities: { add: ['NET_ADMIN', 'CHOWN'] }, procMount: 'Unmasked' }, { ports: [{ containerPort: 80, hostPort: 8080 }] }), c('b', { privileged: true })],
  }));
  assert.deepEqual(vs, [
    { reason: 'non-default capabilities', detail: 'container "a" must not include "NET_ADMIN" in securityContext.capabilities.add' },
    { reason: 'host namespaces', detail: 'hostNetwork=true, hostPID=true' },
    { reason: 'hostPath volumes', detail: 'volume "h"' },
    { reason: 'hostPort', detail: 'container "a" uses hostPort 8080' },
    { reason: 'privileged', detail: 'containers "a", "b" must not set securityContext.privileged=true' },
    { reason: 'procMount', detail: 'container "a" must not set securityContext.procMount to "Unmasked"' },
    { reason: 'seccompProfile', detail: 'pod must not set securityContext.seccompProfile.type to "Unconfined"' },
    { reason: 'forbidden sysctls', detail: 'kernel.msgmax' },
  ]);
  assert.deepEqual(violations('baseline', spec({ securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('w', { windowsOptions: { hostProcess: true } })] })),
    [{ reason: 'hostProcess', detail: 'pod and container "w" must not set securityContext.windowsOptions.hostProcess=true' }]);
});

test('restricted replaces baseline\'s checks of the same thing: volume types for hostPath, capabilities, seccomp', () => {
  const vs = violations('restricted', spec({
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'n', nfs: { server: 's', path: '/' } }, { name: 'ok', configMap: { name: 'x' } }],
    containers: [c('a', { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'Unconfined' }, runAsUser: 0 })],
  }));
  assert.deepEqual(vs, [
    { reason: 'restricted volume types', detail: 'volumes "h", "n" use restricted volume types "hostPath", "nfs"' },
    { reason: 'runAsUser=0', detail: 'container "a" must not set runAsUser=0' },
    { reason: 'seccompProfile', detail: 'container "a" must not set securityContext.seccompProfile.type to "Unconfined"' },
  ]);
});

test('runAsNonRoot: the pod\'s setting covers its containers; an explicit false is named; a non-zero runAsUser is enough', () => {
  const base = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
  assert.deepEqual(violations('restricted', spec({ securityContext: { runAsNonRoot: false }, containers: [c('a', { ...base, runAsNonRoot: false }), c('b', base)] })),
    [{ reason: 'runAsNonRoot != true', detail: 'pod must not set securityContext.runAsNonRoot=false; container "a" must not set securityContext.runAsNonRoot=false; pod or container "b" must set securityContext.runAsNonRoot=true' }]);
  assert.deepEqual(violations('restricted', spec({ containers: [c('a', { ...base, runAsUser: 1000 })] })), []);
});
