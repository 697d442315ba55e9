// The mutating phase as kube-apiserver runs it, through kubectl 1.33 and 1.27 against one
// `orch server`, with webhooks served by this test over HTTPS: what a mutating webhook receives
// on a create (no uid, no creationTimestamp, no name yet for generateName) against what the
// validating one receives, a webhook and a MutatingAdmissionPolicy with reinvocationPolicy
// IfNeeded called again after a later webhook changed the pod, and the Priority plugin: a pod's priority from its PriorityClass,
// the system classes present from the start, refusals and PriorityClass validation in
// kube-apiserver's words as kubectl prints them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';
import { jsonPatch, respond, startWebhookServer, type WebhookServer } from '../support/webhook-server.ts';

const versions = kubectls();

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

function webhook(name: string, url: string, caBundle: string, extra = ''): string {
  return `- name: ${name}
  clientConfig: { url: "${url}", caBundle: ${caBundle} }
  rules: [{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods] }]
  objectSelector: { matchLabels: { order-test: "yes" } }
  sideEffects: None
  admissionReviewVersions: [v1]
  timeoutSeconds: 5
${extra}`;
}

const pod = (meta: string, spec = '') => `apiVersion: v1
kind: Pod
metadata: { ${meta}, namespace: order, labels: { order-test: "yes" } }
spec: { containers: [{ name: c, image: busybox }]${spec} }
`;

describe('admission order, reinvocation and Priority with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  let hooks: WebhookServer;
  const admin = (args: string[], input?: string) => kubectl(versions[0]!.path, orch.kubeconfig, args, input);

  before(async () => {
    [orch, hooks] = await Promise.all([startOrch(), startWebhookServer()]);
    hooks.on('/second', r => (r.request.object.metadata.labels.second ? respond(r) : respond(r, jsonPatch([{ op: 'add', path: '/metadata/labels/second', value: 'done' }]))));
    const ca = hooks.caBundle;
    ok(await admin(['create', '-f', '-'], `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: { name: order-mutating }
webhooks:
${webhook('first.example.com', hooks.url('/first'), ca, '  reinvocationPolicy: IfNeeded\n')}${webhook('second.example.com', hooks.url('/second'), ca)}---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: order-validating }
webhooks:
${webhook('check.example.com', hooks.url('/check'), ca)}---
apiVersion: v1
kind: Namespace
metadata: { name: order }
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: { name: high }
value: 1000
preemptionPolicy: Never
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: { name: order-copy }
spec:
  matchConstraints:
    resourceRules: [{ apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods] }]
    objectSelector: { matchLabels: { order-test: "yes" } }
  reinvocationPolicy: IfNeeded
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'copied': 'second' in object.metadata.labels ? object.metadata.labels.second : 'none'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: { name: order-copy }
spec: { policyName: order-copy }
`));
    // the configurations are in force once a server-side dry run reaches the validating webhook
    // and the policy's label is on what it answers
    await until('the webhooks and the policy are in force', async () => {
      const n = hooks.received.filter(x => x.path === '/check').length;
      const r = await admin(['create', '--dry-run=server', '-o', 'jsonpath={.metadata.labels.copied}', '-f', '-'], pod('name: probe'));
      return hooks.received.filter(x => x.path === '/check').length > n && r.stdout === 'done';
    }, 10_000, 50);
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); await hooks?.close(); });

  test('the system PriorityClasses exist from the start', async () => {
    const out = ok(await admin(['get', 'priorityclasses', '-o', 'custom-columns=NAME:.metadata.name,VALUE:.value,POLICY:.preemptionPolicy', '--no-headers']));
    assert.match(out, /^system-cluster-critical +2000000000 +PreemptLowerPriority$/m);
    assert.match(out, /^system-node-critical +2000001000 +PreemptLowerPriority$/m);
  });

  for (const v of versions) {
    const run = (args: string[], input?: string) => kubectl(v.path, orch.kubeconfig, args, input);
    const suffix = v.label.replace(/\W/g, '');

    test(`kubectl ${v.label}: mutating webhooks see the pod before the system fields, validating ones after; IfNeeded is called again`, async () => {
      for (const dry of [true, false]) {
        const from = hooks.received.length;
        const out = ok(await run(['create', ...(dry ? ['--dry-run=server'] : []), '-o', 'jsonpath={.metadata.name} {.spec.priority} {.spec.preemptionPolicy} {.metadata.labels.second} {.metadata.labels.copied}', '-f', '-'],
          pod(`generateName: gen-${suffix}-`, ', priorityClassName: high')));
        const [name, priority, policy, second, copied] = out.split(' ');
        assert.match(name!, new RegExp(`^gen-${suffix}-[a-z0-9]{5}$`));
        // the IfNeeded policy ran again after the webhook's label: it copied it
        assert.deepEqual([priority, policy, second, copied], ['1000', 'Never', 'done', 'done']);
        const seen = (path: string) => hooks.received.slice(from).filter(x => x.path === path).map(x => x.review.request);
        const first = seen('/first');
        // called, then called again after second.example.com added its label (and the policy copied it)
        assert.deepEqual(first.map(r => `${r.object.metadata.labels.second ?? '-'} ${r.object.metadata.labels.copied}`), ['- none', 'done done']);
        for (const m of [...first, ...seen('/second')]) {
          assert.equal(m.name, undefined);
          assert.equal(m.dryRun, dry);
          assert.deepEqual([m.object.metadata.name, m.object.metadata.generateName, m.object.metadata.uid, m.object.metadata.creationTimestamp], [undefined, `gen-${suffix}-`, undefined, undefined]);
          assert.equal(m.object.metadata.managedFields[0].manager, 'kubectl-create');
          // the pod's status is set after the mutating phase (PrepareForCreate)
          assert.deepEqual(m.object.status, {});
        }
        // the Priority plugin ran before the webhooks: they see the class's priority
        assert.equal(first[0]!.object.spec.priority, 1000);
        const [check] = seen('/check');
        assert.equal(check!.name, name);
        assert.equal(check!.object.metadata.name, name);
        assert.match(check!.object.metadata.uid, /^[0-9a-f-]{36}$/);
        assert.ok(check!.object.metadata.creationTimestamp);
        assert.equal(check!.object.metadata.labels.second, 'done');
        assert.deepEqual(check!.object.status, { phase: 'Pending', qosClass: 'BestEffort' });
      }
    });

    test(`kubectl ${v.label}: Priority's refusals`, async () => {
      const missing = await run(['create', '-f', '-'], pod(`name: ghost-${suffix}`, ', priorityClassName: nope'));
      assert.equal(missing.code, 1);
      assert.equal(missing.stderr, `Error from server (Forbidden): error when creating "STDIN": pods "ghost-${suffix}" is forbidden: no PriorityClass with name nope was found\n`);
      const stated = await run(['create', '-f', '-'], pod(`name: liar-${suffix}`, ', priorityClassName: high, priority: 5'));
      assert.equal(stated.code, 1);
      assert.equal(stated.stderr, `Error from server (Forbidden): error when creating "STDIN": pods "liar-${suffix}" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name\n`);
      const critical = ok(await run(['create', '-o', 'jsonpath={.spec.priority}', '-f', '-'], pod(`name: critical-${suffix}`, ', priorityClassName: system-cluster-critical')));
      assert.equal(critical, '2000000000');
    });

    test(`kubectl ${v.label}: PriorityClass validation and the one globalDefault`, async () => {
      const huge = await run(['create', 'priorityclass', `huge-${suffix}`, '--value=1000000001']);
      assert.equal(huge.code, 1);
      assert.equal(huge.stderr, `error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "huge-${suffix}" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000\n`);
      const reserved = await run(['create', 'priorityclass', `system-${suffix}`, '--value=1']);
      assert.equal(reserved.code, 1);
      assert.equal(reserved.stderr, `error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "system-${suffix}" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-${suffix} is not a known system priority class\n`);
      ok(await run(['create', 'priorityclass', `default-${suffix}`, '--value=7', '--global-default']));
      const second = await run(['create', 'priorityclass', `second-${suffix}`, '--value=8', '--global-default']);
      assert.equal(second.code, 1);
      assert.equal(second.stderr, `error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "second-${suffix}" is forbidden: PriorityClass default-${suffix} is already marked as default. Only one default can exist\n`);
      const defaulted = ok(await run(['-n', 'order', 'run', `plain-${suffix}`, '--image=busybox', '-o', 'jsonpath={.spec.priorityClassName} {.spec.priority}']));
      assert.equal(defaulted, `default-${suffix} 7`);
      ok(await run(['delete', 'priorityclass', `default-${suffix}`]));
    });
  }
});
