// CustomResourceDefinitions served to real kubectl (1.33 and 1.27) by one `orch server`: a CRD
// is applied, becomes Established, and its resource is used like a built-in (short name,
// category, scale, patch, a deprecated version's warning); deleting the CRD removes its objects.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const crd = (group: string) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [all, gadgets] }
  versions:
  - name: v1
    served: true
    storage: true
    schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
    subresources:
      status: {}
      scale: { specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector }
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`;

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const versions = kubectls();
if (versions.length === 0) test('CRD serving with kubectl', requires('no kubectl binary found'), () => {});
else {
  describe('CustomResourceDefinitions served to kubectl', () => {
    let orch: OrchProcess;
    before(async () => { orch = await startOrch(); });
    after(async () => { await orch.stop(); await orch.cleanup(); });

    for (const { label, path: bin } of versions) {
      test(`kubectl ${label}: apply a CRD, use its resource, delete it`, async t => {
        const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);
        const group = `k${label.replace('.', '')}.example.com`;
        // what is the same whichever kubectl asks (raw requests, server-side decisions) is checked once
        const first = label === versions[0]!.label;
        const ns = `crd-${label.replace('.', '-')}`;
        ok(await k(['create', 'namespace', ns]));
        const t0 = Date.now();
        assert.match(ok(await k(['apply', '-f', '-'], crd(group))), new RegExp(`customresourcedefinition.apiextensions.k8s.io/widgets.${group.replace(/\./g, '\\.')} created`));
        ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/widgets.${group}`]));
        const established = Date.now() - t0;
        const status = JSON.parse(ok(await k(['get', 'crd', `widgets.${group}`, '-o', 'json']))).status;
        assert.deepEqual(status.storedVersions, ['v1']);
        assert.equal(status.acceptedNames.plural, 'widgets');
        assert.deepEqual(status.conditions.map((c: { type: string; status: string; reason: string }) => `${c.type}=${c.status}/${c.reason}`).sort(),
          ['Established=True/InitialNamesAccepted', 'NamesAccepted=True/NoConflicts']);

        const widget = (name: string, replicas: number) => JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace: ns, labels: { app: 'w' } }, spec: { replicas, color: 'red' } });
        assert.match(ok(await k(['create', '-f', '-'], widget('one', 1))), new RegExp(`widget.${group.replace(/\./g, '\\.')}/one created`));
        ok(await k(['create', '-f', '-'], widget('two', 2)));
        assert.equal(ok(await k(['-n', ns, 'get', 'wd', 'one', '-o', 'jsonpath={.spec.color} {.metadata.generation}'])), 'red 1');
        assert.match(ok(await k(['-n', ns, 'get', 'widgets'])), /^NAME\s+AGE\n(one|two)\s+\d+s\n/);
        assert.equal(ok(await k(['get', 'wd', '-A', '--field-selector', `metadata.name=two,metadata.namespace=${ns}`, '-o', 'name'])).trim(), `widget.${group}/two`);
        assert.match(ok(await k(['-n', ns, 'get', 'all'])), new RegExp(`widget\\.${group.replace(/\./g, '\\.')}/one`));
        assert.match(ok(await k(['-n', ns, 'get', 'gadgets', '-o', 'name'])), new RegExp(`widget.${group.replace(/\./g, '\\.')}/two`));

        ok(await k(['-n', ns, 'patch', 'wd', 'one', '--type=merge', '-p', '{"spec":{"color":"blue"}}']));
        ok(await k(['-n', ns, 'patch', 'wd', 'one', '--type=json', '-p', '[{"op":"add","path":"/spec/size","value":3}]']));
        assert.equal(ok(await k(['-n', ns, 'get', 'wd', 'one', '-o', 'jsonpath={.spec.color} {.spec.size} {.metadata.generation}'])), 'blue 3 3');
        const smp = await k(['-n', ns, 'patch', 'wd', 'one', '--type=strategic', '-p', '{"spec":{"color":"green"}}']);
        assert.match(smp.stderr, /UnsupportedMediaType|the body of the request was in an unknown format/);
        // status only through its subresource
        ok(await k(['-n', ns, 'patch', 'wd', 'one', '--type=merge', '-p', '{"status":{"replicas":9}}']));
        assert.equal(ok(await k(['-n', ns, 'get', 'wd', 'one', '-o', 'jsonpath={.status}'])), '');

        assert.match(ok(await k(['-n', ns, 'scale', 'wd', 'one', '--replicas=5'])), /scaled/);
        assert.equal(ok(await k(['-n', ns, 'get', 'wd', 'one', '-o', 'jsonpath={.spec.replicas}'])), '5');
        if (first) {
          const scale = JSON.parse(ok(await k(['get', '--raw', `/apis/${group}/v1/namespaces/${ns}/widgets/one/scale`])));
          assert.deepEqual([scale.kind, scale.spec.replicas, scale.status.replicas], ['Scale', 5, 0]);
        }

        const old = await k(['-n', ns, 'get', `widgets.v1beta1.${group}`, 'two', '-o', 'jsonpath={.apiVersion}']);
        assert.equal(ok(old), `${group}/v1beta1`);
        assert.match(old.stderr, new RegExp(`Warning: ${group.replace(/\./g, '\\.')}/v1beta1 Widget is deprecated`));

        // apply (client-side validation reads OpenAPI), legacy discovery, a watch from the start
        const applied = JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'four', namespace: ns }, spec: { replicas: 1 } });
        assert.match(ok(await k(['apply', '-f', '-'], applied)), /widget\.\S+\/four created/);
        if (first) {
          const legacy = JSON.parse(ok(await k(['get', '--raw', `/apis/${group}/v1`])));
          assert.deepEqual(legacy.resources.map((r: { name: string }) => r.name), ['widgets', 'widgets/scale', 'widgets/status']);
          assert.deepEqual(legacy.resources[0].shortNames, ['wd']);
          const watched = ok(await k(['get', '--raw', `/apis/${group}/v1/namespaces/${ns}/widgets?watch=true&timeoutSeconds=1`]));
          assert.equal(watched.trim().split('\n').map(l => `${JSON.parse(l).type} ${JSON.parse(l).object.metadata.name}`).sort().join(','), 'ADDED four,ADDED one,ADDED two');
        }

        // a second CRD asking for names this one holds is refused them, and not established
        if (first) {
          const rival = crd(group).replace(`name: widgets.${group}`, `name: gizmos.${group}`).replace('plural: widgets', 'plural: gizmos').replace(/\n  - name: v1beta1[\s\S]*$/, '\n');
          ok(await k(['apply', '-f', '-'], rival));
          const refused = await until('the rival CRD has a NamesAccepted condition', async () => {
            const conds = JSON.parse(ok(await k(['get', 'crd', `gizmos.${group}`, '-o', 'json']))).status.conditions as Array<{ type: string; status: string; reason: string; message: string }> | undefined;
            return conds?.find(c => c.type === 'NamesAccepted');
          }, 5000, 100);
          assert.equal(refused.status, 'False');
          assert.match(refused.reason, /Conflict$/);
          assert.match(refused.message, /is already in use/);
          ok(await k(['delete', 'crd', `gizmos.${group}`]));
        }

        ok(await k(['-n', ns, 'delete', 'wd', 'two']));
        ok(await k(['create', '-f', '-'], widget('three', 1)));
        const t1 = Date.now();
        ok(await k(['delete', 'crd', `widgets.${group}`, '--timeout=15s']));
        assert.ok(Date.now() - t1 < 15_000);
        const gone = await k(['get', '--raw', `/apis/${group}/v1/namespaces/${ns}/widgets`]);
        assert.notEqual(gone.code, 0, 'the resource is no longer served');
        await until('the group leaves discovery', async () => !JSON.stringify(JSON.parse(ok(await k(['get', '--raw', '/apis']))).groups).includes(group), 5000);
        if (first) {
          // defined again, it starts empty: the objects went with the definition
          ok(await k(['apply', '-f', '-'], crd(group)));
          ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/widgets.${group}`]));
          assert.deepEqual(JSON.parse(ok(await k(['get', '--raw', `/apis/${group}/v1/widgets`]))).items, []);
          ok(await k(['delete', 'crd', `widgets.${group}`]));
        }
        t.diagnostic(`established ${established} ms after apply`);
      });
    }
  });
}
