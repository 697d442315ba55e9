// Custom resources as kubectl 1.33 and 1.27 show them, from one `orch server`: the CRD's
// printer columns in `get` (wide ones with -o wide, a missing value left blank) and in
// `get -w`, a field selector on a selectable field and the refusal of another field, and a
// default added to the schema showing on an object stored before it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

const crd = (group: string) => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
  spec: {
    group, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } },
        status: { type: 'object', properties: { phase: { type: 'string' } } },
      } } },
      additionalPrinterColumns: [
        { name: 'Color', type: 'string', jsonPath: '.spec.color' },
        { name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: [{ jsonPath: '.spec.color' }],
    }],
  },
});

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const versions = kubectls();
if (versions.length === 0) test('CRD tables with kubectl', requires('no kubectl binary found'), () => {});
else {
  describe('custom resources shown by kubectl', () => {
    let orch: OrchProcess;
    before(async () => { orch = await startOrch(); });
    after(async () => { await orch.stop(); await orch.cleanup(); });

    for (const { label, path: bin } of versions) {
      test(`kubectl ${label}: printer columns in get and get -w, selectable fields`, async () => {
        const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);
        const group = `t${label.replace('.', '')}.example.com`;
        const ns = `tables-${label.replace('.', '-')}`;
        const first = label === versions[0]!.label;
        ok(await k(['create', 'namespace', ns]));
        ok(await k(['apply', '-f', '-'], crd(group)));
        ok(await k(['wait', '--for=condition=Established', '--timeout=10s', `crd/widgets.${group}`]));
        const widget = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace: ns }, spec });
        ok(await k(['create', '-f', '-'], widget('one', { color: 'blue', size: 1 })));
        ok(await k(['create', '-f', '-'], widget('two', { size: 2 })));

        const plain = ok(await k(['-n', ns, 'get', `widgets.${group}`]));
        assert.match(plain, /^NAME\s+COLOR\s+PHASE\s+AGE\n/);
        // a value the object lacks is a null cell, which kubectl leaves blank
        assert.match(plain, /\none\s+blue\s+\d+s\n/);
        assert.match(plain, /\ntwo\s+\d+s\n/);
        const wide = ok(await k(['-n', ns, 'get', 'wd', '-o', 'wide']));
        assert.match(wide, /^NAME\s+COLOR\s+SIZE\s+PHASE\s+AGE\n/);
        assert.match(wide, /\none\s+blue\s+1\s+\d+s\n/);
        assert.match(wide, /\ntwo\s+2\s+\d+s\n/);

        assert.equal(ok(await k(['-n', ns, 'get', 'wd', '--field-selector', 'spec.color=blue', '-o', 'name'])).trim(), `widget.${group}/one`);
        assert.equal(ok(await k(['-n', ns, 'get', 'wd', '--field-selector', 'spec.color!=blue', '-o', 'name'])).trim(), `widget.${group}/two`);
        const refused = await k(['-n', ns, 'get', 'wd', '--field-selector', 'spec.size=1']);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /field label not supported: spec\.size/);

        // get -w: the columns, then a row per change
        const child = spawn(bin, ['--kubeconfig', orch.kubeconfig, '-n', ns, 'get', 'wd', '-w'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', d => { out += d; });
        try {
          for (let i = 0; i < 100 && !/\ntwo\s/.test(out); i++) await new Promise(r => setTimeout(r, 50));
          ok(await k(['-n', ns, 'patch', 'wd', 'two', '--type=merge', '-p', '{"spec":{"color":"green"}}']));
          for (let i = 0; i < 100 && !/\ntwo\s+green/.test(out); i++) await new Promise(r => setTimeout(r, 50));
          assert.match(out, /^NAME\s+COLOR\s+PHASE\s+AGE\n/);
          assert.match(out, /\ntwo\s+\d+s\n/);
          assert.match(out, /\ntwo\s+green\s+\d+s\n/);
        } finally {
          child.kill();
        }

        if (first) {
          // a default added to the schema shows on an object stored before it
          const patch = JSON.stringify([{ op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/color/default', value: 'grey' }]);
          ok(await k(['patch', 'crd', `widgets.${group}`, '--type=json', '-p', patch]));
          let color = '';
          for (let i = 0; i < 100 && color !== 'grey'; i++) {
            ok(await k(['-n', ns, 'create', '-f', '-'], widget(`probe${i}`, {})));
            color = ok(await k(['-n', ns, 'get', 'wd', `probe${i}`, '-o', 'jsonpath={.spec.color}']));
          }
          assert.equal(color, 'grey', 'the new schema is served');
          ok(await k(['-n', ns, 'patch', 'wd', 'one', '--type=json', '-p', '[{"op":"remove","path":"/spec/color"}]']));
          assert.equal(ok(await k(['-n', ns, 'get', 'wd', 'one', '-o', 'jsonpath={.spec.color}'])), 'grey');
        }
      });
    }
  });
}
