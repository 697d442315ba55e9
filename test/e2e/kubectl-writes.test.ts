// Writes through real kubectl (newest and oldest available): client-side apply, patch of every
// type, label/annotate/set image, field validation levels, and server-side dry run.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const deployment = (ns: string, opts: { replicas: number; image: string; side: boolean; env?: string }) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels: { app: web }
spec:
  replicas: ${opts.replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: web
        image: ${opts.image}
        env: [{ name: A, value: "${opts.env ?? '1'}" }]
${opts.side ? '      - name: side\n        image: busybox:1\n' : ''}`;

const versions = kubectls();
const needsKubectl = requires(versions.length === 0 && 'no kubectl binary found');
if (needsKubectl.skip) console.log('# skipping kubectl write tests: no kubectl binary found');

describe('kubectl writes', needsKubectl, () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch.stop(); await orch.cleanup(); });

  for (const { label, path: bin } of versions) {
    const ns = `w-${label.replace('.', '-')}`;
    const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, ['-n', ns, ...args], input);
    const jp = async (what: string, path: string) => ok(await k(['get', what, '-o', `jsonpath=${path}`]));

    describe(`kubectl ${label}`, () => {
      before(async () => { ok(await kubectl(bin, orch.kubeconfig, ['create', 'namespace', ns])); });

      test('apply -f twice with changes: fields change, a removed container goes, others stay', async () => {
        assert.match(ok(await k(['apply', '-f', '-'], deployment(ns, { replicas: 1, image: 'nginx:1', side: true }))), /deployment.apps\/web created/);
        // a field set by someone else survives a re-apply that does not mention it
        ok(await k(['annotate', 'deploy', 'web', 'owner=ops']));
        assert.match(ok(await k(['apply', '-f', '-'], deployment(ns, { replicas: 3, image: 'nginx:2', side: false, env: '2' }))), /deployment.apps\/web configured/);
        assert.equal(await jp('deploy/web', '{.spec.replicas} {.spec.template.spec.containers[*].name} {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].env[0].value} {.metadata.annotations.owner}'),
          '3 web nginx:2 2 ops');
        assert.match(ok(await k(['apply', '-f', '-'], deployment(ns, { replicas: 3, image: 'nginx:2', side: false, env: '2' }))), /deployment.apps\/web unchanged/);
      });

      test('patch --type strategic, merge and json (with a failing test op)', async () => {
        ok(await k(['patch', 'deploy', 'web', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"B","value":"b"}]}]}}}}']));
        assert.equal(await jp('deploy/web', '{.spec.template.spec.containers[0].env[*].name}'), 'B A');
        ok(await k(['patch', 'deploy', 'web', '--type=merge', '-p', '{"spec":{"replicas":2}}']));
        ok(await k(['patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":2},{"op":"replace","path":"/spec/replicas","value":4}]']));
        assert.equal(await jp('deploy/web', '{.spec.replicas}'), '4');
        const failed = await k(['patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":9},{"op":"replace","path":"/spec/replicas","value":5}]']);
        assert.notEqual(failed.code, 0);
        assert.match(failed.stderr, /The request is invalid: .*testing value \/spec\/replicas failed/);
        assert.equal(await jp('deploy/web', '{.spec.replicas}'), '4');
        const badKey = await k(['patch', 'deploy', 'web', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}']);
        assert.match(badKey.stderr, /does not contain declared merge key: name/);
      });

      test('label, annotate and set image', async () => {
        assert.match(ok(await k(['label', 'deploy', 'web', 'tier=front'])), /labeled/);
        assert.match(ok(await k(['annotate', 'deploy', 'web', 'note=hi'])), /web annotated?\n/); // kubectl 1.27 prints "annotate"
        assert.match(ok(await k(['set', 'image', 'deploy/web', 'web=nginx:3'])), /image updated/);
        assert.equal(await jp('deploy/web', '{.metadata.labels.tier} {.metadata.annotations.note} {.spec.template.spec.containers[0].image}'), 'front hi nginx:3');
        ok(await k(['label', 'deploy', 'web', 'tier-']));
        assert.equal(await jp('deploy/web', '{.metadata.labels}'), '{"app":"web"}');
      });

      test('edit applies the change made in the editor', async () => {
        const before = process.env.KUBE_EDITOR;
        process.env.KUBE_EDITOR = 'sed -i -e "s/^  replicas: .*/  replicas: 9/"';
        try {
          assert.match(ok(await k(['edit', 'deploy/web'])), /deployment.apps\/web edited/);
        } finally {
          if (before === undefined) delete process.env.KUBE_EDITOR; else process.env.KUBE_EDITOR = before;
        }
        assert.equal(await jp('deploy/web', '{.spec.replicas}'), '9');
        ok(await k(['scale', 'deploy/web', '--replicas=4']));
      });

      test('replace --validate=strict refuses an unknown field; --validate=warn prints a warning', async () => {
        ok(await k(['create', 'configmap', 'c1', '--from-literal=a=1']));
        const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c1, namespace: ${ns} }\ndata: { a: "2" }\nbogus: 1\n`;
        const strict = await k(['replace', '--validate=strict', '-f', '-'], cm);
        assert.notEqual(strict.code, 0);
        assert.match(strict.stderr, /Error from server \(BadRequest\).*ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"/);
        assert.equal(await jp('cm/c1', '{.data.a}'), '1');
        const warn = await k(['replace', '--validate=warn', '-f', '-'], cm);
        assert.equal(warn.code, 0, warn.stderr);
        assert.match(warn.stderr, /Warning: unknown field "bogus"/);
        assert.equal(await jp('cm/c1', '{.data.a}'), '2');
      });

      test('create --dry-run=server answers the object and stores nothing', async () => {
        const out = ok(await k(['create', 'configmap', 'dry', '--from-literal=x=1', '--dry-run=server', '-o', 'yaml']));
        assert.match(out, /name: dry/);
        assert.match(out, /uid: /);
        const get = await k(['get', 'cm', 'dry']);
        assert.match(get.stderr, /configmaps "dry" not found/);
      });

      test('apply --server-side: conflict with another manager, then --force-conflicts', async () => {
        ok(await k(['create', 'deployment', 'ssa', '--image=nginx:1']));
        const cfg = (image: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ssa, namespace: ${ns} }\nspec:\n  selector: { matchLabels: { app: ssa } }\n  template:\n    metadata: { labels: { app: ssa } }\n    spec:\n      containers: [{ name: nginx, image: ${image} }]\n`;
        const conflict = await k(['apply', '--server-side', '-f', '-'], cfg('nginx:2'));
        assert.notEqual(conflict.code, 0);
        assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl-create" using apps\/v1: \.spec\.template\.spec\.containers\[name="nginx"\]\.image/);
        assert.equal(await jp('deploy/ssa', '{.spec.template.spec.containers[0].image}'), 'nginx:1');
        assert.match(ok(await k(['apply', '--server-side', '--force-conflicts', '-f', '-'], cfg('nginx:2'))), /deployment.apps\/ssa serverside-applied/);
        assert.equal(await jp('deploy/ssa', '{.spec.template.spec.containers[0].image}'), 'nginx:2');
        // a server-side dry run answers the result and changes nothing
        const dry = ok(await k(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-o', 'jsonpath={.spec.template.spec.containers[0].image}', '-f', '-'], cfg('nginx:3')));
        assert.equal(dry, 'nginx:3');
        assert.equal(await jp('deploy/ssa', '{.spec.template.spec.containers[0].image}'), 'nginx:2');
        const managers = await jp('deploy/ssa', '{range .metadata.managedFields[*]}{.manager}/{.operation} {end}');
        assert.match(managers, /kubectl\/Apply/);
        assert.match(managers, /kubectl-create\/Update/);
      });

      test('apply --server-side removes a field it no longer applies; migrates from client-side apply', async () => {
        const cm = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: owned, namespace: ${ns} }\ndata: { ${data} }\n`;
        ok(await k(['apply', '-f', '-'], cm('a: "1", b: "2"')));
        assert.match(await jp('cm/owned', '{.metadata.managedFields[0].manager}'), /kubectl-client-side-apply/);
        assert.match(ok(await k(['apply', '--server-side', '-f', '-'], cm('a: "1", b: "2"'))), /serverside-applied/);
        assert.doesNotMatch(await jp('cm/owned', '{range .metadata.managedFields[*]}{.manager} {end}'), /kubectl-client-side-apply/);
        ok(await k(['apply', '--server-side', '-f', '-'], cm('a: "1"')));
        assert.equal(await jp('cm/owned', '{.data}'), '{"a":"1"}');
      });

      test('diff shows what apply would change and changes nothing', async () => {
        const d = await k(['diff', '-f', '-'], deployment(ns, { replicas: 7, image: 'nginx:3', side: false, env: '2' }));
        assert.equal(d.code, 1, d.stderr);
        assert.match(d.stdout, /-  replicas: 4\n\+  replicas: 7/);
        assert.equal(await jp('deploy/web', '{.spec.replicas}'), '4');
      });
    });
  }
});
