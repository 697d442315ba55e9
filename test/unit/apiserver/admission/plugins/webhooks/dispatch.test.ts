// The two plugins against a webhook served by the test over HTTPS with its own CA.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { silentLogger } from '../../../../../../src/api/log.ts';
import { StatusError } from '../../../../../../src/api/status.ts';
import { mutatingWebhookPlugin } from '../../../../../../src/apiserver/admission/plugins/webhooks/mutating.ts';
import { validatingWebhookPlugin } from '../../../../../../src/apiserver/admission/plugins/webhooks/validating.ts';
import { staticSource } from '../../../../../../src/apiserver/admission/plugins/webhooks/source.ts';
import type { Registry } from '../../../../../../src/registry/registry.ts';
import { jsonPatch, respond, startWebhookServer, type WebhookServer } from '../../../../../support/webhook-server.ts';
import { attributes, catalog, configuration } from './attributes.ts';

let server: WebhookServer;
let closedPort: number;
before(async () => {
  server = await startWebhookServer();
  // a port nothing listens on
  const s = createServer();
  await new Promise<void>(r => s.listen(0, '127.0.0.1', r));
  closedPort = (s.address() as { port: number }).port;
  await new Promise<void>(r => s.close(() => r()));
});
after(() => server.close());

const namespaces: Record<string, Record<string, string>> = { dev: { env: 'dev' }, prod: { env: 'prod' } };
const registry = {
  async get(_info: unknown, _ns: unknown, name: string) {
    if (!namespaces[name]) throw new StatusError(404, 'NotFound', `namespaces "${name}" not found`);
    return { metadata: { name, labels: namespaces[name] } };
  },
} as unknown as Registry;
const deps = { registry, catalog, log: silentLogger, uid: () => 'uid-1' };

function validating(...webhooks: Array<Record<string, unknown>>) {
  return validatingWebhookPlugin(deps, staticSource([configuration('c', webhooks)]));
}
function mutating(...webhooks: Array<Record<string, unknown>>) {
  return mutatingWebhookPlugin(deps, staticSource([configuration('c', webhooks)]));
}
async function refusal(p: unknown): Promise<StatusError> {
  try { await p; } catch (err) { assert.ok(err instanceof StatusError, String(err)); return err; }
  assert.fail('the request was admitted');
}

test('a validating webhook receives the AdmissionReview and its refusal reaches the client worded by kube-apiserver', async () => {
  server.on('/deny', r => respond(r, { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'pods named p are not welcome' }, warnings: ['careful'], auditAnnotations: { why: 'name' } }));
  const a = attributes();
  const err = await refusal(validating({ name: 'deny.example.com', clientConfig: { url: server.url('/deny'), caBundle: server.caBundle } }).validate!(a));
  assert.equal(err.status.message, 'admission webhook "deny.example.com" denied the request: pods named p are not welcome');
  assert.equal(err.status.code, 403);
  assert.deepEqual(a.warnings, ['careful']);
  assert.equal(a.annotations['deny.example.com/why'], 'name');
  const got = server.received.at(-1)!.review;
  assert.equal(got.apiVersion, 'admission.k8s.io/v1');
  assert.equal(got.request.uid, 'uid-1');
  assert.deepEqual(got.request.kind, { group: '', version: 'v1', kind: 'Pod' });
  assert.deepEqual(got.request.resource, { group: '', version: 'v1', resource: 'pods' });
  assert.equal(got.request.operation, 'CREATE');
  assert.equal(got.request.namespace, 'dev');
  assert.deepEqual(got.request.userInfo, { username: 'jane', groups: ['system:authenticated'] });
  assert.equal(got.request.object.metadata.name, 'p');
  assert.equal(got.request.oldObject, null);
  assert.equal(got.request.dryRun, false);
});

test('a mutating webhook\'s JSONPatch changes the object; later webhooks see the change', async () => {
  server.on('/label', r => respond(r, jsonPatch([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }])));
  server.on('/echo', r => respond(r, { warnings: [`saw ${r.request.object.metadata.labels.mutated}`] }));
  const a = attributes();
  const cc = (path: string) => ({ url: server.url(path), caBundle: server.caBundle });
  await mutating({ name: 'label.example.com', clientConfig: cc('/label') }, { name: 'echo.example.com', clientConfig: cc('/echo') }).admit!(a);
  assert.equal(a.object!.metadata.labels!.mutated, 'yes');
  assert.deepEqual(a.warnings, ['saw yes']);
  assert.deepEqual(JSON.parse(a.annotations['mutation.webhook.admission.k8s.io/round_0_index_0']!), { configuration: 'c', webhook: 'label.example.com', mutated: true });
});

test('failurePolicy Fail: an unreachable webhook refuses with Go\'s dial error; Ignore lets the request through', async () => {
  const url = `https://127.0.0.1:${closedPort}/x`;
  const err = await refusal(validating({ name: 'down.example.com', clientConfig: { url, caBundle: server.caBundle } }).validate!(attributes()));
  assert.equal(err.status.code, 500);
  assert.equal(err.status.message, `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`);
  const a = attributes();
  await mutating({ name: 'down.example.com', failurePolicy: 'Ignore', clientConfig: { url, caBundle: server.caBundle } }).admit!(a);
  assert.equal(a.annotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'], 'down.example.com');
});

test('the caBundle is checked, and timeoutSeconds bounds the call', async () => {
  const err = await refusal(validating({ name: 'ca.example.com', clientConfig: { url: server.url('/ok'), caBundle: server.otherCaBundle } }).validate!(attributes()));
  assert.equal(err.status.message, `Internal error occurred: failed calling webhook "ca.example.com": failed to call webhook: Post "${server.url('/ok')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  const garbage = await refusal(validating({ name: 'ca.example.com', clientConfig: { url: server.url('/ok'), caBundle: Buffer.from('not a certificate').toString('base64') } }).validate!(attributes()));
  assert.equal(garbage.status.message, 'Internal error occurred: failed calling webhook "ca.example.com": could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
  server.on('/slow', () => 'hang');
  const started = Date.now();
  const slow = await refusal(validating({ name: 'slow.example.com', timeoutSeconds: 1, clientConfig: { url: server.url('/slow'), caBundle: server.caBundle } }).validate!(attributes()));
  assert.equal(slow.status.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${server.url('/slow')}?timeout=1s": context deadline exceeded`);
  assert.ok(Date.now() - started < 2500);
});

test('answers kube-apiserver does not accept fail the call', async () => {
  server.on('/wrong-uid', r => ({ ...respond(r), uid: 'nope' }));
  server.on('/error', () => ({ status: 500, body: 'boom' }));
  const call = (path: string, failurePolicy = 'Fail') => validating({ name: 'bad.example.com', failurePolicy, clientConfig: { url: server.url(path), caBundle: server.caBundle } }).validate!(attributes());
  assert.equal((await refusal(call('/wrong-uid'))).status.message, 'Internal error occurred: failed calling webhook "bad.example.com": received invalid webhook response: expected response.uid="uid-1", got "nope"');
  assert.equal((await refusal(call('/error'))).status.message, 'Internal error occurred: failed calling webhook "bad.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding');
  await call('/error', 'Ignore');
});

test('a dry run never reaches a webhook with side effects', async () => {
  const before = server.received.length;
  const err = await refusal(validating({ name: 'fx.example.com', sideEffects: 'Some', clientConfig: { url: server.url('/ok'), caBundle: server.caBundle } }).validate!(attributes({ dryRun: true })));
  assert.equal(err.status.code, 400);
  assert.equal(err.status.message, 'admission webhook "fx.example.com" does not support dry run');
  await validating({ name: 'ok.example.com', sideEffects: 'NoneOnDryRun', clientConfig: { url: server.url('/ok'), caBundle: server.caBundle } }).validate!(attributes({ dryRun: true }));
  assert.equal(server.received.length, before + 1);
  assert.equal(server.received.at(-1)!.review.request.dryRun, true);
});

test('namespaceSelector, objectSelector and rules decide who is called', async () => {
  server.on('/no', r => respond(r, { allowed: false, status: { message: 'no' } }));
  const hook = (over: Record<string, unknown>) => validating({ name: 'sel.example.com', clientConfig: { url: server.url('/no'), caBundle: server.caBundle }, ...over });
  await hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }).validate!(attributes());
  await refusal(hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }).validate!(attributes({ namespace: 'prod' })));
  await hook({ objectSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] } }).validate!(attributes());
  await refusal(hook({ objectSelector: { matchLabels: { app: 'web' } } }).validate!(attributes()));
  // a namespace that does not exist is the 404 it is, once the rules match
  const missing = await refusal(hook({ namespaceSelector: { matchLabels: { env: 'prod' } } }).validate!(attributes({ namespace: 'gone' })));
  assert.equal(missing.status.message, 'namespaces "gone" not found');
  await hook({ rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }).validate!(attributes());
});

test('matchConditions: false skips, an error fails closed under Fail and skips under Ignore', async () => {
  const hook = (expression: string, failurePolicy = 'Fail') => validating({ name: 'mc.example.com', failurePolicy, matchConditions: [{ name: 'c', expression }], clientConfig: { url: server.url('/no'), caBundle: server.caBundle } });
  await hook("object.metadata.name != 'p'").validate!(attributes());
  await refusal(hook("request.userInfo.username == 'jane' && has(object.metadata.labels)").validate!(attributes()));
  const err = await refusal(hook('object.metadata.nope == 1').validate!(attributes()));
  assert.equal(err.status.code, 403);
  assert.equal(err.status.message, `pods "p" is forbidden: expression 'object.metadata.nope == 1' resulted in error: no such key: nope`);
  await hook('object.metadata.nope == 1', 'Ignore').validate!(attributes());
});

test('matchPolicy Equivalent sends the object in the version the webhook registered for', async () => {
  const seen: string[] = [];
  server.on('/hpa', r => { seen.push(`${r.request.kind.version} ${r.request.requestKind.version} ${r.request.object.apiVersion}`); return respond(r); });
  const rules = [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }];
  const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'dev' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] } };
  const a = () => attributes({ group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', object: structuredClone(hpa) });
  await validating({ name: 'hpa.example.com', rules, clientConfig: { url: server.url('/hpa'), caBundle: server.caBundle } }).validate!(a());
  assert.deepEqual(seen, ['v1 v2 autoscaling/v1']);
  assert.equal(server.received.at(-1)!.review.request.object.spec.targetCPUUtilizationPercentage, 50);
  await validating({ name: 'hpa.example.com', rules, matchPolicy: 'Exact', clientConfig: { url: server.url('/hpa'), caBundle: server.caBundle } }).validate!(a());
  assert.equal(seen.length, 1);
});

test('a service clientConfig is dialled where the resolver says, verified as <name>.<namespace>.svc', async () => {
  const plugin = validatingWebhookPlugin({ ...deps, resolveService: async () => ({ host: '127.0.0.1', port: server.port }) }, staticSource([configuration('c', [
    { name: 'svc.example.com', clientConfig: { service: { namespace: 'test', name: 'webhook', path: '/no', port: 443 }, caBundle: server.caBundle } },
  ])]));
  const err = await refusal(plugin.validate!(attributes()));
  assert.equal(err.status.message, 'admission webhook "svc.example.com" denied the request: no');
  const noEndpoints = validatingWebhookPlugin({ ...deps, resolveService: async () => { const { ResolveError } = await import('../../../../../../src/apiserver/admission/plugins/webhooks/service-resolver.ts'); throw new ResolveError('no endpoints available for service "webhook"'); } }, staticSource([configuration('c', [
    { name: 'svc.example.com', clientConfig: { service: { namespace: 'test', name: 'webhook', port: 8443 }, caBundle: server.caBundle } },
  ])]));
  assert.equal((await refusal(noEndpoints.validate!(attributes()))).status.message, 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://webhook.test.svc:8443/?timeout=10s": no endpoints available for service "webhook"');
});

test('writes of webhook configurations never reach webhooks', async () => {
  const before = server.received.length;
  const a = attributes({ group: 'admissionregistration.k8s.io', plural: 'validatingwebhookconfigurations', namespace: '', object: { metadata: { name: 'x' } } });
  await validating({ name: 'all.example.com', rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], clientConfig: { url: server.url('/no'), caBundle: server.caBundle } }).validate!(a);
  assert.equal(server.received.length, before);
});

test('matchConditions ask the server\'s authorizer through `authorizer`', async () => {
  const asked: string[] = [];
  const authorizer = {
    authorize(a: { user: { name: string }; verb: string; resource: string; namespace: string }) {
      asked.push(`${a.user.name} ${a.verb} ${a.resource} ${a.namespace}`);
      return { decision: a.verb === 'create' ? 'allow' as const : 'no-opinion' as const, reason: '' };
    },
  };
  const plugin = (expression: string) => validatingWebhookPlugin({ ...deps, authorizer: authorizer as never }, staticSource([configuration('c', [
    { name: 'authz.example.com', matchConditions: [{ name: 'c', expression }], clientConfig: { url: server.url('/no'), caBundle: server.caBundle } },
  ])]));
  await refusal(plugin("authorizer.group('').resource('pods').namespace('dev').check('create').allowed()").validate!(attributes()));
  await plugin("authorizer.requestResource.check('delete').allowed()").validate!(attributes());
  await plugin("authorizer.serviceAccount('dev', 'robot').group('').resource('pods').check('get').allowed()").validate!(attributes());
  assert.deepEqual(asked, ['jane create pods dev', 'jane delete pods dev', 'system:serviceaccount:dev:robot get pods ']);
});

test('a mutation is recorded in the audit annotations with its patch', async () => {
  const a = attributes();
  await mutating({ name: 'label.example.com', clientConfig: { url: server.url('/label'), caBundle: server.caBundle } }).admit!(a);
  assert.deepEqual(JSON.parse(a.annotations['patch.webhook.admission.k8s.io/round_0_index_0']!), {
    configuration: 'c', webhook: 'label.example.com', patch: [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }], patchType: 'JSONPatch',
  });
});

test('matchPolicy Equivalent: a patch made in the webhook\'s version comes back in the request\'s', async () => {
  server.on('/hpa-patch', r => respond(r, jsonPatch([{ op: 'replace', path: '/spec/targetCPUUtilizationPercentage', value: 70 }])));
  const rules = [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }];
  const a = attributes({ group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', object: {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'dev' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
  } });
  await mutating({ name: 'hpa.example.com', rules, clientConfig: { url: server.url('/hpa-patch'), caBundle: server.caBundle } }).admit!(a);
  assert.equal(a.object!.apiVersion, 'autoscaling/v2');
  assert.deepEqual((a.object!.spec as { metrics: unknown }).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
});

test('a container a webhook adds has Kubernetes\' defaults before the next webhook sees it', async () => {
  server.on('/sidecar', r => respond(r, jsonPatch([{ op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'proxy:1.0' } }])));
  server.on('/look', r => respond(r, { warnings: [JSON.stringify(r.request.object.spec.containers.at(-1))] }));
  const a = attributes();
  const cc = (path: string) => ({ url: server.url(path), caBundle: server.caBundle });
  await mutating({ name: 'sidecar.example.com', clientConfig: cc('/sidecar') }, { name: 'look.example.com', clientConfig: cc('/look') }).admit!(a);
  assert.deepEqual(JSON.parse(a.warnings[0]!), { name: 'sidecar', image: 'proxy:1.0', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent', resources: {} });
});
