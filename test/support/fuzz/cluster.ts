// The server the fuzzer runs against and what it holds before the first request: every admission
// path on (a ValidatingAdmissionPolicy and its binding, a ResourceQuota, a LimitRange, Pod
// Security labels, webhooks pointing at nothing with failurePolicy Ignore), a CRD with CEL rules,
// encryption at rest, CBOR and the unsafe delete's gates; and a few objects of every kind fuzzed.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FuzzClient } from './client.ts';
import { storeRevision } from './checks.ts';
import { accountsNamespace, fuzzNamespace, kinds, widgetGroup, type Json } from './resources.ts';

export interface FuzzServerSetup {
  /** the arguments of `orch server` */
  args: string[];
  cleanup(): Promise<void>;
}

/**
 * Nothing but the fuzzer writes (no controllers, no scheduler: the write check relies on it);
 * secrets, config maps and widgets are encrypted at rest by three different providers.
 */
export async function fuzzServerSetup(): Promise<FuzzServerSetup> {
  const dir = await mkdtemp(join(tmpdir(), 'fuzz-server-'));
  const key = () => randomBytes(32).toString('base64');
  const config = {
    apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration',
    resources: [
      { resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k1', secret: key() }] } }, { identity: {} }] },
      { resources: ['configmaps'], providers: [{ aescbc: { keys: [{ name: 'k1', secret: key() }] } }, { identity: {} }] },
      { resources: [`widgets.${widgetGroup}`], providers: [{ secretbox: { keys: [{ name: 'k1', secret: key() }] } }, { identity: {} }] },
    ],
  };
  const file = join(dir, 'encryption.json');
  await writeFile(file, JSON.stringify(config), { mode: 0o600 });
  return {
    args: ['--controllers=-namespace', '--disable-scheduler', '--encryption-provider-config', file,
      '--feature-gates=CBORServingAndStorage=true,AllowUnsafeMalformedObjectDeletion=true'],
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

const inFuzz = { matchLabels: { 'kubernetes.io/metadata.name': fuzzNamespace } };

const crd: Json = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${widgetGroup}` },
  spec: {
    group: widgetGroup, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] },
    conversion: { strategy: 'None' },
    versions: ['v1', 'v1beta1'].map(name => ({
      name, served: true, storage: name === 'v1',
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      additionalPrinterColumns: [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }, { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                replicas: { type: 'integer', minimum: 0 }, size: { type: 'string', enum: ['small', 'large'] },
                tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 }, 'x-kubernetes-list-type': 'set' },
              },
              'x-kubernetes-validations': [
                { rule: 'self.replicas <= 100', message: 'at most 100 replicas' },
                { rule: "self.size == 'small' || self.replicas > 1", messageExpression: "'a ' + self.size + ' widget needs replicas'", reason: 'FieldValueInvalid', fieldPath: '.replicas' },
                { rule: 'has(self.tags) ? self.tags.all(t, t.size() > 0) : true' },
                { rule: 'self.size == oldSelf.size || self.replicas == 0', message: 'size changes only at 0 replicas' },
              ],
            },
            status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' } } },
          },
        },
      },
    })),
  },
};

const admission: Array<[string, Json]> = [
  ['/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
    metadata: { name: 'fz-policy' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['', 'apps', widgetGroup], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps', 'deployments', 'widgets'] }] },
      variables: [{ name: 'labels', expression: 'has(object.metadata.labels) ? object.metadata.labels : {}' }],
      validations: [
        { expression: "!('forbidden' in variables.labels)", message: 'the label forbidden is forbidden', reason: 'Forbidden' },
        { expression: "object.kind != 'Deployment' || object.spec.replicas <= 50", messageExpression: "'too many replicas: ' + string(object.spec.replicas)" },
      ],
      auditAnnotations: [{ key: 'name', valueExpression: 'object.metadata.name' }],
    },
  }],
  ['/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', { metadata: { name: 'fz-binding' }, spec: { policyName: 'fz-policy', validationActions: ['Deny'], matchResources: { namespaceSelector: inFuzz } } }],
  ...(['validating', 'mutating'] as const).map((type): [string, Json] => [`/apis/admissionregistration.k8s.io/v1/${type}webhookconfigurations`, {
    metadata: { name: `fz-${type}` },
    webhooks: [{
      name: `nothing.${widgetGroup}`, clientConfig: { url: `https://127.0.0.1:1/${type}` }, failurePolicy: 'Ignore', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 1,
      namespaceSelector: inFuzz, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }],
    }],
  }]),
  [`/api/v1/namespaces/${fuzzNamespace}/resourcequotas`, {
    metadata: { name: 'fz-quota' },
    // large enough never to fill in a long soak: the quota is checked and charged, never refuses for want of room
    spec: { hard: { pods: '1000000', 'requests.cpu': '100000', 'count/configmaps': '1000000', services: '1000000', [`count/widgets.${widgetGroup}`]: '1000000' } },
  }],
  [`/api/v1/namespaces/${fuzzNamespace}/limitranges`, {
    metadata: { name: 'fz-limits' },
    spec: { limits: [{ type: 'Container', default: { cpu: '50m', memory: '64Mi' }, defaultRequest: { cpu: '10m', memory: '32Mi' }, max: { cpu: '2', memory: '1Gi' } }, { type: 'Pod', max: { cpu: '4' } }] },
  }],
];

async function post(client: FuzzClient, path: string, obj: Json): Promise<void> {
  // (not a fuzzed request: no time limit of its own but the seeding's)
  const reply = await client.send({ transport: 'h2', method: 'POST', path, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(obj)) }, 15_000);
  if (reply.status !== 201) throw new Error(`seeding ${path}: ${reply.status} ${reply.body.toString('utf8').slice(0, 300)}`);
}

async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await ok()); await new Promise(r => setTimeout(r, 50))) {
    if (Date.now() - started > 15_000) throw new Error(`seeding: ${what} did not happen within 15 s`);
  }
}

/** the namespace under Pod Security, the admission objects, the CRD, and `a` and `b` of every kind */
export async function seedCluster(client: FuzzClient): Promise<void> {
  const labels = { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' };
  await post(client, '/api/v1/namespaces', { metadata: { name: fuzzNamespace, labels } });
  await post(client, '/api/v1/namespaces', { metadata: { name: accountsNamespace } });
  // pods need the namespace's default service account, which no controller makes here
  await post(client, `/api/v1/namespaces/${fuzzNamespace}/serviceaccounts`, { metadata: { name: 'default' } });
  await post(client, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  for (const [path, obj] of admission) await post(client, path, obj);
  await until('the widgets being served', async () => (await client.send({ transport: 'h2', method: 'GET', path: `/apis/${widgetGroup}/v1/namespaces/${fuzzNamespace}/widgets`, headers: {} }, 15_000)).status === 200);
  // the policy is in force once it refuses what it must (it is compiled from a watch)
  const forbidden = { metadata: { name: 'fz-probe', labels: { forbidden: 'x' } } };
  await until('the admission policy refusing', async () => (await client.send({
    transport: 'h2', method: 'POST', path: `/api/v1/namespaces/${fuzzNamespace}/configmaps?dryRun=All`, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(forbidden)),
  }, 15_000)).status === 403);
  for (const k of kinds) for (const name of ['a', 'b']) await post(client, k.collection, k.object(name));
  // the first scrape loads prom-client, which holds the server's event loop a while: not in a fuzzed request's time
  await client.send({ transport: 'h2', method: 'GET', path: '/metrics', headers: {} }, 15_000);
  // the server's own writes that follow these (the policy's type checking, the CRD's conditions) are over
  let last = -1;
  await until('the store going quiet', async () => {
    const now = await storeRevision(client);
    if (now === last) return true;
    last = now;
    await new Promise(r => setTimeout(r, 400));
    return false;
  });
}
