// Custom resources in the served OpenAPI, read by real kubectl from one `orch server`: explain
// shows a multi-version CRD's schema descriptions through OpenAPI v3 (kubectl 1.33 and 1.27) and
// through the v2 protobuf document (kubectl 1.27's plaintext-openapiv2), a schema change shows
// at once, and each served group-version has its local APIService.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const group = 'openapi.example.com';
const crd = (v1Replicas: string) => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.${group} }
spec:
  group: ${group}
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget makes things happen.
        properties:
          spec:
            type: object
            description: What the widget should be.
            properties:
              replicas: { type: integer, minimum: 0, description: ${v1Replicas} }
              color: { type: string, nullable: true, description: The color of the widget. }
          status: { type: object, properties: { replicas: { type: integer } } }
    subresources:
      status: {}
      scale: { specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas }
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget, second edition.
        properties:
          spec: { type: object, properties: { size: { type: string, description: The size of a second-edition widget. } } }
`;

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const versions = kubectls();
if (versions.length === 0) test('CRD OpenAPI with kubectl', requires('no kubectl binary found'), () => {});
else {
  describe('custom resources in the served OpenAPI, read by kubectl', () => {
    let orch: OrchProcess;
    const k = (args: string[], input?: string) => kubectl(versions[0]!.path, orch.kubeconfig, args, input);
    before(async () => {
      orch = await startOrch();
      ok(await k(['apply', '-f', '-'], crd('How many widgets to run.')));
      ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/widgets.${group}`]));
    });
    after(async () => { await orch.stop(); await orch.cleanup(); });

    for (const { label, path: bin } of versions) {
      test(`kubectl ${label} explain: descriptions of each version's schema`, async () => {
        const kx = (args: string[]) => kubectl(bin, orch.kubeconfig, ['explain', ...args]);
        const field = ok(await kx(['widgets.spec.replicas', `--api-version=${group}/v1`]));
        assert.match(field, /KIND:\s+Widget/);
        assert.match(field, /replicas\s+<integer>/);
        assert.match(field, /How many widgets to run\./);
        const v1 = ok(await kx(['widgets', `--api-version=${group}/v1`]));
        assert.match(v1, /A Widget makes things happen\./);
        assert.match(v1, /metadata\s+<ObjectMeta>[\s\S]*Standard object's metadata/);
        assert.match(v1, /spec\s+<Object>\s+What the widget should be\./);
        // the preferred version is v2, by Kubernetes' version order
        const v2 = ok(await kx(['widgets.spec']));
        assert.match(v2, /VERSION:\s+v2/);
        assert.match(v2, /The size of a second-edition widget\./);
        if (label === '1.27') {
          // the older explain, which reads only the protobuf form of /openapi/v2
          const old = ok(await kx(['widgets.spec', `--api-version=${group}/v1`, '--output=plaintext-openapiv2']));
          assert.match(old, new RegExp(`VERSION:\\s+${group.replace(/\./g, '\\.')}/v1`));
          // nullable has no Swagger 2.0 form: the field loses its type there, as Kubernetes publishes it
          assert.match(old, /color\s+<>\s+The color of the widget\./);
          assert.match(old, /How many widgets to run\./);
        }
      });
    }

    test('a schema change shows at once; each served version has its APIService, gone when not served', async () => {
      const apiservices = ok(await k(['get', 'apiservices']));
      assert.match(apiservices, new RegExp(`v1\\.${group.replace(/\./g, '\\.')}\\s+Local\\s+True`));
      assert.match(apiservices, new RegExp(`v2\\.${group.replace(/\./g, '\\.')}\\s+Local\\s+True`));
      const v1 = JSON.parse(ok(await k(['get', 'apiservice', `v1.${group}`, '-o', 'json'])));
      assert.deepEqual([v1.spec.groupPriorityMinimum, v1.spec.versionPriority, v1.spec.service], [1000, 100, undefined]);

      ok(await k(['apply', '-f', '-'], crd('Replicas as changed.')));
      await until('the changed description in explain', async () => /Replicas as changed\./.test(ok(await k(['explain', 'widgets.spec.replicas', `--api-version=${group}/v1`]))));

      ok(await k(['patch', 'crd', `widgets.${group}`, '--type=json', '-p', '[{"op":"replace","path":"/spec/versions/1/served","value":false}]']));
      await until('v2 APIService gone', async () => (await k(['get', 'apiservice', `v2.${group}`])).code !== 0);
      await until('v2 gone from the v3 index', async () => {
        const index = JSON.parse(ok(await k(['get', '--raw', '/openapi/v3']))) as { paths: Record<string, unknown> };
        return index.paths[`apis/${group}/v1`] !== undefined && index.paths[`apis/${group}/v2`] === undefined;
      });
      ok(await k(['delete', 'crd', `widgets.${group}`]));
      await until('v1 APIService gone', async () => (await k(['get', 'apiservice', `v1.${group}`])).code !== 0);
      const v2doc = JSON.parse(ok(await k(['get', '--raw', '/openapi/v2']))) as { definitions: Record<string, unknown> };
      assert.equal(v2doc.definitions[`com.example.openapi.v1.Widget`], undefined);
    });
  });
}
