// A CRD served in v1 and v2 (v2 stored) whose versions convert through a conversion webhook the
// test serves over HTTPS with a CA of its own in caBundle, reached as `clientConfig.service`
// through a selector-less Service and its EndpointSlice, by one `orch server` driven with
// kubectl 1.33: objects created as v1 are stored as v2 and read back as either, lists and
// watches come in the version asked for.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { requires } from '../support/requires.ts';
import { startConversionWebhook, type ConversionWebhook } from '../support/conversion-webhook.ts';

const group = 'conv.example.com';

function setup(hook: ConversionWebhook): string {
  const port = Number(new URL(hook.url('/')).port);
  const schema = (spec: string) => `{ openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: ${spec} } } } }`;
  return `
apiVersion: v1
kind: Service
metadata: { name: converter, namespace: default }
spec: { ports: [{ name: https, port: 443 }] }
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: { name: converter-1, namespace: default, labels: { kubernetes.io/service-name: converter } }
addressType: IPv4
ports: [{ name: https, port: ${port} }]
endpoints: [{ addresses: ["127.0.0.1"], conditions: { ready: true } }]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: targets.${group} }
spec:
  group: ${group}
  scope: Namespaced
  names: { plural: targets, kind: Target }
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: { namespace: default, name: converter, path: /convert }
        caBundle: ${hook.caBundle}
  versions:
  - { name: v1, served: true, storage: false, schema: ${schema('{ hostPort: { type: string } }')} }
  - { name: v2, served: true, storage: true, schema: ${schema('{ host: { type: string }, port: { type: integer } }')} }
`;
}

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const bin = kubectls().find(k => k.label === '1.33' || k.label === 'default')?.path;
if (!bin) test('CRD conversion with kubectl', requires('no kubectl binary found'), () => {});
else {
  describe('CRD versions converted through a conversion webhook', () => {
    let orch: OrchProcess;
    let hook: ConversionWebhook;
    before(async () => { [orch, hook] = await Promise.all([startOrch(), startConversionWebhook()]); });
    after(async () => { await orch.stop(); await orch.cleanup(); await hook.close(); });

    test('kubectl creates as v1, reads as v2 and back; lists and watches are converted', async () => {
      const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);
      ok(await k(['apply', '-f', '-'], setup(hook)));
      ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/targets.${group}`]));
      const raw = rawClient(orch.kubeconfig);
      const v1 = `/apis/${group}/v1/namespaces/default/targets`;
      // a watch through v1, from now
      const rv = (await raw.request('GET', v1)).json().metadata.resourceVersion;
      const watch = await raw.watch(`${v1}?watch=1&resourceVersion=${rv}`);

      const created = JSON.parse(ok(await k(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Target', metadata: { name: 'db', namespace: 'default' }, spec: { hostPort: 'db.local:5432' } }))));
      assert.deepEqual([created.apiVersion, created.spec], [`${group}/v1`, { hostPort: 'db.local:5432' }]);
      ok(await k(['create', '-f', '-'], JSON.stringify({ apiVersion: `${group}/v2`, kind: 'Target', metadata: { name: 'cache', namespace: 'default' }, spec: { host: 'cache.local', port: 6379 } })));

      assert.equal(ok(await k(['get', `targets.v2.${group}`, 'db', '-o', 'jsonpath={.apiVersion} {.spec.host} {.spec.port}'])), `${group}/v2 db.local 5432`);
      assert.equal(ok(await k(['get', `targets.v1.${group}`, 'cache', '-o', 'jsonpath={.apiVersion} {.spec.hostPort}'])), `${group}/v1 cache.local:6379`);
      const listed = JSON.parse(ok(await k(['get', `targets.v1.${group}`, '-o', 'json'])));
      assert.deepEqual(listed.items.map((o: any) => [o.apiVersion, o.metadata.name, o.spec.hostPort]), [[`${group}/v1`, 'cache', 'cache.local:6379'], [`${group}/v1`, 'db', 'db.local:5432']]);
      assert.match(ok(await k(['get', `targets.v2.${group}`])), /^NAME\s+AGE\ncache\s+\d+s\ndb\s+\d+s\n$/);

      // an edit through v1 lands in the stored v2 form
      ok(await k(['patch', `targets.v1.${group}`, 'cache', '--type=merge', '-p', '{"spec":{"hostPort":"cache.local:6380"}}']));
      assert.equal(ok(await k(['get', `targets.v2.${group}`, 'cache', '-o', 'jsonpath={.spec.port}'])), '6380');

      await watch.waitFor(3);
      watch.close();
      assert.deepEqual(watch.events.map(e => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.spec.hostPort]), [
        ['ADDED', `${group}/v1`, 'db', 'db.local:5432'],
        ['ADDED', `${group}/v1`, 'cache', 'cache.local:6379'],
        ['MODIFIED', `${group}/v1`, 'cache', 'cache.local:6380'],
      ]);
      // every review came through the service, as ConversionReview v1 at its path
      assert.ok(hook.received.length >= 5);
      assert.ok(hook.received.every(r => r.path === '/convert' && r.review.apiVersion === 'apiextensions.k8s.io/v1' && r.review.kind === 'ConversionReview'));

      // the webhook refusing: kubectl prints kube-apiserver's message
      hook.on('/convert', r => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: r.request.uid, result: { status: 'Failure', message: 'cannot convert today' } } }));
      const refused = await k(['get', `targets.v1.${group}`, 'db']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, new RegExp(`Error from server: conversion webhook for ${group.replace(/\./g, '\\.')}/v2, Kind=Target failed: cannot convert today`));
      assert.equal(ok(await k(['get', `targets.v2.${group}`, 'db', '-o', 'jsonpath={.spec.port}'])), '5432', 'the storage version needs no webhook');
    });
  });
}
