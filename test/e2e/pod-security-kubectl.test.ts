// PodSecurity through real kubectl (1.33 and 1.27) against one `orch server` started with a
// PodSecurityConfiguration: a refusal listing baseline checks by id (AppArmor and SELinux among
// them), the warn level's warning at its own version, a workload warned about, namespace labels
// that cannot be read, a tightened enforce level (dry run and real) warning about the pods there,
// and an exempt namespace — each exactly as kubectl prints it against kube-apiserver.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const versions = kubectls();
const needsKubectl = requires(versions.length === 0 && 'no kubectl binary found');

const restrictedDetail = (c: string) => `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

function expectRun(r: Run, code: number, stdout: string, stderr: string, what: string): void {
  assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code, stdout, stderr }, what);
}

describe('PodSecurity with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  let dir: string;
  const admin = (...args: string[]) => kubectl(versions[0]!.path, orch.kubeconfig, args);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'podsec-e2e-'));
    const config = join(dir, 'admission.yaml');
    await writeFile(config, `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults: { audit: restricted }
    exemptions: { namespaces: [ps-exempt] }
`);
    orch = await startOrch({ args: ['--admission-control-config-file', config] });
    const r = await kubectl(versions[0]!.path, orch.kubeconfig, ['create', '-f', '-'], `apiVersion: v1
kind: Namespace
metadata: { name: ps-app, labels: { pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/warn: restricted, pod-security.kubernetes.io/warn-version: v1.30 } }
---
apiVersion: v1
kind: Namespace
metadata: { name: ps-exempt }
`);
    assert.equal(r.code, 0, r.stderr);
    await until('the default service account in ps-app', async () => (await admin('-n', 'ps-app', 'get', 'serviceaccount', 'default', '-o', 'name')).code === 0);
  });
  after(async () => {
    await orch.stop();
    await orch.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  test('pods: a refusal with every baseline violation in order; a pod baseline allows, warned at restricted:v1.30', async () => {
    for (const k of versions) {
      const v = k.label.replace(/\W/g, '');
      const run = (...args: string[]) => kubectl(k.path, orch.kubeconfig, args);
      const bad = `bad${v}`;
      // kubectl 1.27's types predate appArmorProfile (1.30): its --overrides drop the field, as against any cluster
      const apparmor = k.label === '1.27' ? '' : `forbidden AppArmor profile (container "${bad}" must not set AppArmor profile type to "Unconfined"), `;
      const overrides = JSON.stringify({ spec: { securityContext: { seLinuxOptions: { user: 'root' } }, containers: [{ name: bad, image: 'busybox', ports: [{ containerPort: 80, hostPort: 8080 }], securityContext: { privileged: true, appArmorProfile: { type: 'Unconfined' }, capabilities: { add: ['NET_ADMIN'] } } }] } });
      expectRun(await run('-n', 'ps-app', 'run', bad, '--image=busybox', `--overrides=${overrides}`), 1, '',
        `Error from server (Forbidden): pods "${bad}" is forbidden: violates PodSecurity "baseline:latest": ${apparmor}non-default capabilities (container "${bad}" must not include "NET_ADMIN" in securityContext.capabilities.add), hostPort (container "${bad}" uses hostPort 8080), privileged (container "${bad}" must not set securityContext.privileged=true), seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: user may not be set)\n`, 'refused');
      const good = `good${v}`;
      expectRun(await run('-n', 'ps-app', 'run', good, '--image=busybox'), 0, `pod/${good} created\n`,
        `Warning: would violate PodSecurity "restricted:v1.30": ${restrictedDetail(good)}\n`, 'warned');
      expectRun(await run('-n', 'ps-app', 'create', 'deployment', `d${v}`, '--image=busybox', '--replicas=0'), 0, `deployment.apps/d${v} created\n`,
        `Warning: would violate PodSecurity "restricted:v1.30": ${restrictedDetail('busybox')}\n`, 'workload');
    }
  });

  test('namespace labels: unreadable values refused; a tightened enforce level warns about the pods there; an exempt namespace says so', async () => {
    for (const k of versions) {
      const run = (...args: string[]) => kubectl(k.path, orch.kubeconfig, args);
      expectRun(await run('label', 'namespace', 'ps-app', 'pod-security.kubernetes.io/enforce=strict', '--overwrite'), 1, '',
        'The Namespace "ps-app" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted\n', 'bad level');
      expectRun(await run('label', 'namespace', 'ps-app', 'pod-security.kubernetes.io/audit-version=1.30', 'pod-security.kubernetes.io/warn=loud', '--overwrite'), 1, '',
        'The Namespace "ps-app" is invalid: \n* metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "1.30": must be "latest" or "v1.x"\n* metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted\n', 'two bad labels');
      const pods = versions.map(x => `good${x.label.replace(/\W/g, '')}`).sort();
      const others = pods.length - 1;
      const warned = `Warning: existing pods in namespace "ps-app" violate the new PodSecurity enforce level "restricted:v1.35"\nWarning: ${pods[0]}${others ? ` (and ${others} other pod${others === 1 ? '' : 's'})` : ''}: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile\n`;
      expectRun(await run('label', 'namespace', 'ps-app', 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/enforce-version=v1.35', '--overwrite', '--dry-run=server'), 0, 'namespace/ps-app labeled (server dry run)\n', warned, 'dry run');
      expectRun(await run('label', 'namespace', 'ps-exempt', 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/warn=baseline', '--overwrite'), 0, 'namespace/ps-exempt labeled\n',
        'Warning: namespace "ps-exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest, warn=baseline:latest) will be ignored\n', 'exempt');
      expectRun(await run('label', 'namespace', 'ps-exempt', 'pod-security.kubernetes.io/enforce-', 'pod-security.kubernetes.io/warn-'), 0, 'namespace/ps-exempt unlabeled\n', '', 'exempt unlabeled');
    }
    // the real change, once: then the same label again tightens nothing
    const real = await admin('label', 'namespace', 'ps-app', 'pod-security.kubernetes.io/enforce=restricted', '--overwrite');
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stderr, /^Warning: existing pods in namespace "ps-app" violate the new PodSecurity enforce level "restricted:latest"\n/);
    expectRun(await admin('label', 'namespace', 'ps-app', 'pod-security.kubernetes.io/enforce=restricted', '--overwrite'), 0, 'namespace/ps-app not labeled\n', '', 'unchanged');
  });
});
