// Admission webhooks served by this test over HTTPS (a url clientConfig trusting the test's own
// CA through caBundle), configured with kubectl against `orch server`, and seen through kubectl
// 1.33 and 1.27 as a real cluster shows them: a refusal with kube-apiserver's message, a label
// added by a mutating webhook's JSONPatch in `get -o yaml`, a webhook's warning printed by
// kubectl, and an unreachable webhook ignored under failurePolicy Ignore but refusing under Fail.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';
import { jsonPatch, respond, startWebhookServer, type WebhookServer } from '../support/webhook-server.ts';

const versions = kubectls();

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>(r => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>(r => s.close(() => r()));
  return port;
}

function webhook(name: string, url: string, caBundle: string, selector: string, extra = ''): string {
  return `- name: ${name}
  clientConfig: { url: "${url}", caBundle: ${caBundle} }
  rules: [{ operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps] }]
  objectSelector: { matchLabels: { webhook-test: ${selector} } }
  sideEffects: None
  admissionReviewVersions: [v1]
  timeoutSeconds: 5
${extra}`;
}

function configMap(name: string, label: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name}, namespace: hooks, labels: { webhook-test: ${label} } }\ndata: { a: b }\n`;
}

describe('admission webhooks with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  let hooks: WebhookServer;
  let downUrl: string;
  const admin = (args: string[], input?: string) => kubectl(versions[0]!.path, orch.kubeconfig, args, input);

  before(async () => {
    [orch, hooks] = await Promise.all([startOrch(), startWebhookServer()]);
    downUrl = `https://127.0.0.1:${await freePort()}/down`;
    hooks.on('/deny', r => respond(r, { allowed: false, status: { code: 403, reason: 'Forbidden', message: `configmap ${r.request.name} is not welcome` } }));
    hooks.on('/label', r => respond(r, { ...jsonPatch([{ op: 'add', path: '/metadata/labels/mutated-by', value: 'label.example.com' }]), warnings: [`configmap ${r.request.name} was labelled`] }));
    const ca = hooks.caBundle;
    const config = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: e2e-validating }
webhooks:
${webhook('deny.example.com', hooks.url('/deny'), ca, 'deny')}${webhook('ignored.example.com', downUrl, ca, 'down-ignore', '  failurePolicy: Ignore\n')}${webhook('down.example.com', downUrl, ca, 'down-fail', '  failurePolicy: Fail\n')}---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: { name: e2e-mutating }
webhooks:
${webhook('label.example.com', hooks.url('/label'), ca, 'mutate')}`;
    const applied = await admin(['create', '-f', '-'], config);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((await admin(['create', 'namespace', 'hooks'])).code, 0);
    // the configurations are in force once a server-side dry run reaches the webhook
    await until('the validating webhook is in force', async () => (await admin(['create', '--dry-run=server', '-f', '-'], configMap('probe', 'deny'))).code !== 0, 10_000, 50);
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); await hooks?.close(); });

  for (const v of versions) {
    const run = (args: string[], input?: string) => kubectl(v.path, orch.kubeconfig, args, input);
    const suffix = v.label.replace('.', '-');

    test(`kubectl ${v.label}: a validating webhook's refusal, in kube-apiserver's words`, async () => {
      const r = await run(['create', '-f', '-'], configMap(`denied-${suffix}`, 'deny'));
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `Error from server (Forbidden): error when creating "STDIN": admission webhook "deny.example.com" denied the request: configmap denied-${suffix} is not welcome\n`);
      const review = hooks.received.filter(x => x.path === '/deny').at(-1)!.review.request;
      assert.equal(review.userInfo.username, 'kubernetes-admin');
      assert.deepEqual(review.requestResource, { group: '', version: 'v1', resource: 'configmaps' });
    });

    test(`kubectl ${v.label}: a mutating webhook's label is stored and its warning printed`, async () => {
      const r = await run(['create', '-f', '-'], configMap(`mutated-${suffix}`, 'mutate'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, `Warning: configmap mutated-${suffix} was labelled\n`);
      const yaml = await run(['-n', 'hooks', 'get', 'configmap', `mutated-${suffix}`, '-o', 'yaml']);
      assert.match(yaml.stdout, /\n {4}mutated-by: label\.example\.com\n/);
    });

    test(`kubectl ${v.label}: an unreachable webhook is ignored under Ignore and refuses under Fail`, async () => {
      const ok = await run(['create', '-f', '-'], configMap(`ignored-${suffix}`, 'down-ignore'));
      assert.equal(ok.code, 0, ok.stderr);
      const port = new URL(downUrl).port;
      const failed = await run(['create', '-f', '-'], configMap(`failed-${suffix}`, 'down-fail'));
      assert.equal(failed.code, 1);
      assert.equal(failed.stderr, `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "${downUrl}?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused\n`);
    });
  }
});
