// Server-side apply on a custom resource typed by its CRD's schema, and a CRD refused for an
// over-cost rule, driven with real kubectl against one `orch server`: two field managers own
// different items of a map list, an atomic list conflicts as a whole.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

const group = 'applycel.example.com';
const crd = (rule: string) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.${group} }
spec:
  group: ${group}
  scope: Namespaced
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: { type: object, required: [name], properties: { name: { type: string }, port: { type: integer } } }
              args: { type: array, items: { type: string } }
              tags: { type: array, items: { type: string } }
            x-kubernetes-validations:
            - rule: "${rule}"
`;
const gadget = (spec: object) => JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec });

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const bin = kubectls()[0]?.path;
if (!bin) test('server-side apply on custom resources with kubectl', requires('no kubectl binary found'), () => {});
else {
  describe('server-side apply and CEL cost on custom resources', () => {
    let orch: OrchProcess;
    before(async () => { orch = await startOrch(); });
    after(async () => { await orch.stop(); await orch.cleanup(); });
    const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);

    test('a CRD whose rule is estimated over budget is refused; the fixed one is served', async () => {
      // every tag compared with every tag, neither list nor strings bounded
      const refused = await k(['apply', '-f', '-'], crd('self.tags.all(a, self.tags.all(b, a.contains(b)))'));
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, new RegExp(`The CustomResourceDefinition "gadgets.${group.replace(/\./g, '\\.')}" is invalid`));
      assert.match(refused.stderr, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)/);
      assert.match(refused.stderr, /Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget/);
      const typo = await k(['apply', '-f', '-'], crd("self.prots.size() < 10"));
      assert.match(typo.stderr, /compilation failed: ERROR: <input>:1:5: undefined field 'prots'/);
      ok(await k(['apply', '-f', '-'], crd('self.ports.size() < 10')));
      ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/gadgets.${group}`]));
    });

    test('two field managers own different items of a map list; an atomic list conflicts whole', async () => {
      ok(await k(['apply', '--server-side', '--field-manager=team-a', '-f', '-'], gadget({ ports: [{ name: 'http', port: 80 }], args: ['--a'] })));
      ok(await k(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], gadget({ ports: [{ name: 'dns', port: 53 }] })));
      const obj = JSON.parse(ok(await k(['-n', 'default', 'get', 'gadget', 'g', '-o', 'json', '--show-managed-fields'])));
      assert.deepEqual(obj.spec.ports.map((p: { name: string }) => p.name), ['http', 'dns']);
      const fields = (m: string) => obj.metadata.managedFields.find((e: { manager: string }) => e.manager === m).fieldsV1['f:spec'];
      assert.deepEqual(Object.keys(fields('team-a')['f:ports']), ['k:{"name":"http"}']);
      assert.deepEqual(Object.keys(fields('team-b')['f:ports']), ['k:{"name":"dns"}']);
      assert.deepEqual(fields('team-a')['f:args'], {});

      const conflict = await k(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], gadget({ ports: [{ name: 'dns', port: 53 }], args: ['--b'] }));
      assert.notEqual(conflict.code, 0);
      assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "team-a": \.spec\.args\n/);
      // team-a stops applying its item: it goes, team-b's stays
      ok(await k(['apply', '--server-side', '--field-manager=team-a', '-f', '-'], gadget({ args: ['--a'] })));
      const after = JSON.parse(ok(await k(['-n', 'default', 'get', 'gadget', 'g', '-o', 'json'])));
      assert.deepEqual(after.spec.ports, [{ name: 'dns', port: 53 }]);
      // strategic merge patch stays refused, merge patch works
      const smp = await k(['-n', 'default', 'patch', 'gadget', 'g', '--type=strategic', '-p', '{"spec":{"args":["x"]}}']);
      assert.match(smp.stderr, /UnsupportedMediaType|the body of the request was in an unknown format/);
      ok(await k(['-n', 'default', 'patch', 'gadget', 'g', '--type=merge', '-p', '{"spec":{"tags":["t"]}}']));
    });
  });
}
