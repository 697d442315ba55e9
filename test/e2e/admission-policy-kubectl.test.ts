// ValidatingAdmissionPolicy through real kubectl (newest and oldest available) against `orch
// server`: each version applies a policy with a ConfigMap as its paramKind and a binding; a
// Deployment over the ConfigMap's limit is refused with exactly what kubectl prints against a
// real cluster, one within it is created, and a Warn binding's failure is kubectl's "Warning:"
// line on an admitted request. One server for every version; each works in its own namespace.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const versions = kubectls();
const needsKubectl = requires(versions.length === 0 && 'no kubectl binary found');

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

/** the policies, binding and param of one kubectl version, scoped to its namespace by label */
function manifests(id: string): string {
  return `apiVersion: v1
kind: Namespace
metadata: { name: vap-${id}, labels: { vap: "${id}" } }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: replica-limit, namespace: vap-${id} }
data: { maxReplicas: "3" }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: max-replicas-${id} }
spec:
  failurePolicy: Fail
  paramKind: { apiVersion: v1, kind: ConfigMap }
  matchConstraints:
    resourceRules:
    - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }
  validations:
  - expression: object.spec.replicas <= int(params.data.maxReplicas)
    messageExpression: "'replicas must be at most ' + params.data.maxReplicas"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: max-replicas-${id}-binding }
spec:
  policyName: max-replicas-${id}
  validationActions: [Deny]
  paramRef: { name: replica-limit, parameterNotFoundAction: Deny }
  matchResources:
    namespaceSelector: { matchLabels: { vap: "${id}" } }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: single-replica-${id} }
spec:
  matchConstraints:
    resourceRules:
    - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }
  validations:
  - { expression: "object.spec.replicas <= 1", message: more than one replica }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: single-replica-${id}-warn }
spec:
  policyName: single-replica-${id}
  validationActions: [Warn]
  matchResources:
    namespaceSelector: { matchLabels: { vap: "${id}" } }
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: { name: team-label-${id} }
spec:
  matchConstraints:
    resourceRules:
    - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'team': 'kubectl-${id}'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: { name: team-label-${id} }
spec:
  policyName: team-label-${id}
  matchResources:
    namespaceSelector: { matchLabels: { vap: "${id}" } }
`;
}

describe('ValidatingAdmissionPolicy with kubectl', needsKubectl, () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch?.stop(); await orch?.cleanup(); });

  for (const v of versions) {
    test(`kubectl ${v.label}: a policy with ConfigMap params denies, admits and warns as a real cluster prints`, async () => {
      const id = v.label.replace('.', '');
      const k = (...args: string[]) => kubectl(v.path, orch.kubeconfig, args);
      const applied = ok(await kubectl(v.path, orch.kubeconfig, ['apply', '-f', '-'], manifests(id)));
      assert.match(applied, new RegExp(`validatingadmissionpolicy.admissionregistration.k8s.io/max-replicas-${id} created`));
      assert.match(applied, new RegExp(`validatingadmissionpolicybinding.admissionregistration.k8s.io/max-replicas-${id}-binding created`));
      const ns = `vap-${id}`;
      // kube-apiserver's table columns
      const table = ok(await k('get', 'validatingadmissionpolicies', `max-replicas-${id}`)).split('\n');
      assert.match(table[0]!, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/);
      assert.match(table[1]!, new RegExp(`^max-replicas-${id}\\s+1\\s+v1/ConfigMap\\s+\\d+s$`));
      const bindings = ok(await k('get', 'validatingadmissionpolicybindings', `max-replicas-${id}-binding`)).split('\n');
      assert.match(bindings[0]!, /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE$/);
      assert.match(bindings[1]!, new RegExp(`^max-replicas-${id}-binding\\s+max-replicas-${id}\\s+\\*/replica-limit\\s+\\d+s$`));
      const why = `ValidatingAdmissionPolicy 'max-replicas-${id}' with binding 'max-replicas-${id}-binding' denied request: replicas must be at most 3`;
      // the policy applies once the server's watch has delivered it (well under a second)
      const denied = await until('the policy to deny', async () => {
        const r = await k('-n', ns, 'create', 'deployment', 'web', '--image=nginx', '--replicas=5');
        return r.code !== 0 && r;
      }, 10_000, 100);
      // warnings come back on refused requests too, before kubectl's error
      const warning = (n: number) => `Warning: Validation failed for ValidatingAdmissionPolicy 'single-replica-${id}' with binding 'single-replica-${id}-warn': more than one replica\n`.repeat(n);
      assert.equal(denied.stderr, `${warning(1)}error: failed to create deployment: deployments.apps "web" is forbidden: ${why}\n`);
      const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: api, namespace: ${ns} }
spec:
  replicas: 4
  selector: { matchLabels: { app: api } }
  template:
    metadata: { labels: { app: api } }
    spec: { containers: [{ name: c, image: nginx }] }
`;
      const viaApply = await kubectl(v.path, orch.kubeconfig, ['apply', '-f', '-'], deployment);
      assert.equal(viaApply.code, 1);
      // the default reason, Invalid (422), which kubectl prints from the Status' cause
      assert.equal(viaApply.stderr, `${warning(1)}The deployments "api" is invalid: : ${why}\n`);
      // within the limit: admitted, with the Warn binding's failure as kubectl's Warning line
      const warned = await k('-n', ns, 'create', 'deployment', 'web', '--image=nginx', '--replicas=2');
      assert.equal(warned.code, 0, warned.stderr);
      assert.equal(warned.stdout, 'deployment.apps/web created\n');
      assert.equal(warned.stderr, warning(1));
      // an update past the limit is refused too; the scale subresource is not matched by a rule
      // naming only deployments, as in Kubernetes
      const patch = ['-n', ns, 'patch', 'deployment', 'web', '-p', '{"spec":{"replicas":9}}'];
      const patched = await k(...patch);
      assert.equal(patched.code, 1);
      assert.equal(patched.stderr, `${warning(1)}The deployments "web" is invalid: : ${why}\n`);
      ok(await k('-n', ns, 'scale', 'deployment', 'web', '--replicas=1'));
      // the MutatingAdmissionPolicy labelled what was created
      assert.equal(ok(await k('-n', ns, 'get', 'deployment', 'web', '-o', 'jsonpath={.metadata.labels.team}')), `kubectl-${id}`);
      // the param changes: the new limit applies to the next request
      ok(await k('-n', ns, 'patch', 'configmap', 'replica-limit', '-p', '{"data":{"maxReplicas":"9"}}'));
      await until('the raised limit', async () => (await k(...patch)).code === 0, 10_000, 100);
    });
  }
});
